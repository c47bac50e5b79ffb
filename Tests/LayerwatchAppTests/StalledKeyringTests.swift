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
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer], preferences: Self.quitting))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(store: ConfigStore(directory: directory, secrets: KeyringSecretStore()))
            XCTAssertTrue(iterateMainContext(timeout: 10) { gtk_widget_get_mapped(window.window) != 0 }, "the window shows at once")
            XCTAssertNotNil(keyring.waitFor("stalled", timeout: 10), "the app asked the keyring")
            try assertResponsive(for: 1)
            XCTAssertFalse(app.library.secretsLoaded, "the keyring has not answered")

            // The Add Printer dialog says where codes go without waiting for the keyring's answer.
            let opened = Date()
            app.showDialog(editing: nil)
            XCTAssertLessThan(Date().timeIntervalSince(opened), 0.5, "the dialog opened without waiting on the keyring")
            let dialog = try XCTUnwrap(app.editor.openDialog)
            XCTAssertTrue(dialog.accessCode.hintText?.contains("keyring (Secret Service)") ?? false, String(describing: dialog.accessCode.hintText))
            gtk_window_destroy(gcast(dialog.window))

            try assertClosingReturnsInTime(window)
            let saved = ConfigStore(directory: directory, secrets: nil).load().config
            XCTAssertEqual(saved.printers.map(\.name), ["X1C"], "the printer survives")
        }
    }

    func testAStoreThatNeverAnswersLeavesTheCodeInTheOwnerOnlyFileAtQuit() throws {
        let keyring = try TestServer(script: "stalled_secret_service.py")
        let directory = try makeTemporaryDirectory()
        // Saved without a keyring: the code is in the file, and the app offers to move it to the keyring.
        let printer = Printer(name: "X1C", kind: .bambuRTSPS(.x1c), host: "127.0.0.1", accessCode: "12345678")
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer], preferences: Self.quitting))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(store: ConfigStore(directory: directory, secrets: KeyringSecretStore()))
            XCTAssertTrue(iterateMainContext(timeout: 10) { app.library.secretsLoaded })
            XCTAssertEqual(window.tabs.all.map(\.name), ["X1C"])
            XCTAssertTrue(iterateMainContext(timeout: 10) { toastTitles(in: window.window).contains { $0.hasSuffix("Your keyring can keep it now.") } },
                          "offered: \(toastTitles(in: window.window))")
            let move = try XCTUnwrap(descendants(of: window.window).first {
                PreferencesWidgets.typeName($0) == "GtkButton" && gtk_button_get_label(gcast($0)).map { String(cString: $0) } == "Move to Keyring"
            })
            gtk_widget_activate(move)  // the user accepts
            XCTAssertTrue(iterateMainContext(timeout: 10) { !keyring.events(named: "stalled").isEmpty && toastTitles(in: window.window).isEmpty },
                          "the app tried to store the code, and the offer went")
            try assertResponsive(for: 1)

            // Only the save at quit writes this size: the file below is that save's, not the first one's.
            gtk_window_set_default_size(gcast(window.window), 777, 555)
            try assertClosingReturnsInTime(window)
            let file = directory.appendingPathComponent("printers.json")
            let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            XCTAssertTrue(text.contains(#""width" : 777"#), text)
            XCTAssertTrue(text.contains(#""accessCode" : "12345678""#), text)
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int, 0o600)
        }
    }

    func testTheDialogSaysWhereCodesGoOnceTheKeyringAnswers() throws {
        _ = try TestServer(script: "stalled_secret_service.py") // Answers whether it is there; nothing else.
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(store: ConfigStore.standard(environment: ["XDG_CONFIG_HOME": directory.path])) { app, window, dialog in
            defer { gtk_window_destroy(gcast(dialog.window)) }
            XCTAssertTrue(dialog.accessCode.hintText?.contains("if one answers") ?? false, "not known yet: \(String(describing: dialog.accessCode.hintText))")
            XCTAssertTrue(iterateMainContext(timeout: 10) { dialog.accessCode.hintText?.contains("not in printers.json") ?? false },
                          "learnt off the main loop: \(String(describing: dialog.accessCode.hintText))")
        }
    }

    func testAPrinterAddedWhileTheKeyringIsAnsweringGetsOneTab() throws {
        let directory = try makeTemporaryDirectory()
        let saved = Printer(name: "Saved X1C", kind: .bambuRTSPS(.x1c), host: "127.0.0.1")
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [saved]))
        let keyring = GatedSecretStore()
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(store: ConfigStore(directory: directory, secrets: keyring))
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertFalse(app.library.secretsLoaded, "the keyring is still answering")
            let added = Printer(name: "Added meanwhile", kind: .generic, cameras: [PrinterCamera(url: "rtsp://127.0.0.1:\(closedLoopbackPort())/live")])
            app.editor.save(added)
            XCTAssertEqual(window.tabs.all.map(\.name), ["Added meanwhile"])
            keyring.open()
            XCTAssertTrue(iterateMainContext(timeout: 10) { app.library.secretsLoaded })
            XCTAssertEqual(window.tabs.all.map(\.name).sorted(), ["Added meanwhile", "Saved X1C"], "one tab each")
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

    /// Closing the window ends the app here (it does not stay in the background), as it did
    /// before Layerwatch could.
    private static let quitting = Preferences(runInBackground: false)

    /// Closing the window (the app's quit) returns within the flush bound of 2 + 2 s.
    @MainActor
    private func assertClosingReturnsInTime(_ window: MainWindow, file: StaticString = #filePath, line: UInt = #line) throws {
        let started = Date()
        gtk_window_close(gcast(window.window))
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertLessThan(elapsed, 5, "closing waited \(elapsed) s", file: file, line: line)
    }
}

/// A keyring whose lookups wait until the test opens it, as one waiting for the user to unlock it;
/// then every printer's code is 12345678.
private final class GatedSecretStore: SecretStore, @unchecked Sendable {
    private let gate = DispatchSemaphore(value: 0)

    func open() {
        gate.signal()
    }

    func store(accessCode: String, for printerID: UUID, label: String) throws {}

    func accessCode(for printerID: UUID) throws -> String? {
        gate.wait()
        gate.signal()
        return "12345678"
    }

    func removeAccessCode(for printerID: UUID) throws {}
}
