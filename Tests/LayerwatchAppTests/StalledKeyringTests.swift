import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// The app against a Secret Service that never answers (a real D-Bus peer owning
/// org.freedesktop.secrets on the test's private session bus, `stalled_secret_service.py`), as a
/// keyring waiting on an unanswered prompt behaves: the window opens and stays responsive, and
/// closing it returns within the bound, with the codes kept in the owner-only file.
final class StalledKeyringTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testALookupThatNeverAnswersDoesNotFreezeTheWindowNorHoldUpQuitting() throws {
        let keyring = try TestServer(script: "stalled_secret_service.py")
        let directory = try makeTemporaryDirectory()
        // Saved while a keyring held the code: the file has none, so starting asks the keyring.
        let printer = Printer(name: "X1C", kind: .bambuRTSPS(.x1c), host: "127.0.0.1")
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer]))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(store: ConfigStore(directory: directory, secrets: KeyringSecretStore()))
            XCTAssertTrue(iterateMainContext(timeout: 10) { gtk_widget_get_mapped(window.window) != 0 }, "the window shows at once")
            XCTAssertNotNil(keyring.waitFor("stalled", timeout: 10), "the app asked the keyring")
            try assertResponsive(for: 1)
            XCTAssertFalse(app.library.secretsLoaded, "the keyring has not answered")

            try assertClosingReturnsInTime(window)
            let saved = ConfigStore(directory: directory, secrets: nil).load().config
            XCTAssertEqual(saved.printers.map(\.name), ["X1C"], "the printer survives")
        }
    }

    func testAStoreThatNeverAnswersLeavesTheCodeInTheOwnerOnlyFileAtQuit() throws {
        let keyring = try TestServer(script: "stalled_secret_service.py")
        let directory = try makeTemporaryDirectory()
        // Saved without a keyring: the code is in the file, and the app moves it to the keyring.
        let printer = Printer(name: "X1C", kind: .bambuRTSPS(.x1c), host: "127.0.0.1", accessCode: "12345678")
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer]))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(store: ConfigStore(directory: directory, secrets: KeyringSecretStore()))
            XCTAssertTrue(iterateMainContext(timeout: 10) { app.library.secretsLoaded })
            XCTAssertEqual(window.tabs.all.map(\.name), ["X1C"])
            XCTAssertNotNil(keyring.waitFor("stalled", timeout: 10), "the app tried to store the code")
            try assertResponsive(for: 1)

            try assertClosingReturnsInTime(window)
            let file = directory.appendingPathComponent("printers.json")
            XCTAssertTrue(String(decoding: try Data(contentsOf: file), as: UTF8.self).contains(#""accessCode" : "12345678""#))
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int, 0o600)
        }
    }

    /// A 50 ms timer keeps firing on the main loop for `seconds`.
    @MainActor
    private func assertResponsive(for seconds: UInt32, file: StaticString = #filePath, line: UInt = #line) throws {
        var ticks = 0
        let timer = RepeatingTimer(milliseconds: 50) { ticks += 1 }
        defer { timer.cancel() }
        _ = iterateMainContext(timeout: seconds) { false }
        XCTAssertGreaterThanOrEqual(ticks, Int(seconds) * 20 / 2, "the main loop kept running", file: file, line: line)
    }

    /// Closing the window (the app's quit) returns within the flush bound of 2 + 2 s.
    @MainActor
    private func assertClosingReturnsInTime(_ window: MainWindow, file: StaticString = #filePath, line: UInt = #line) throws {
        let started = Date()
        gtk_window_close(gcast(window.window))
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertLessThan(elapsed, 5, "closing waited \(elapsed) s", file: file, line: line)
    }
}
