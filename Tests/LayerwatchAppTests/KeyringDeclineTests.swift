import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// The app against a Secret Service that does not take a secret (`declining_secret_service.py` on
/// a private session bus of a child process, `AppChild`: a create-keyring prompt the user cancels)
/// and then takes it: the user is told at once where the secret went, the Edit Printer dialog says where this
/// printer's secret is, and a secret `printers.json` holds moves into the keyring only when the
/// user asks (the offer at start, the dialog's button), leaving no secret in the file.
final class KeyringDeclineTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testACancelledPromptIsToldAtOnceAndTheEditDialogSaysTheFileUntilTheUserMovesIt() throws {
        guard isAppChild() else { return try runInAppChild(launcher: AppChild.privateBus) }
        let windowManager = try WindowManager()
        let declining = try TestServer(script: "declining_secret_service.py", arguments: ["--mode", "dismiss"])
        let directory = try makeTemporaryDirectory()
        let store = ConfigStore.standard(environment: ["XDG_CONFIG_HOME": directory.path])
        let file = store.fileURL
        try withPrinterDialog(store: store) { app, window, adding in
            adding.fill(.bambuRTSPS(.x1c), name: "X1C", host: "127.0.0.1", code: "12345678")
            adding.save()

            let told = "The access code of “X1C” is kept in \(file.path), which only you can read. The keyring did not take it."
            XCTAssertTrue(iterateMainContext(timeout: 10) { toastTitles(in: window.window).contains(told) },
                          "told at once: \(toastTitles(in: window.window))")
            XCTAssertNotNil(declining.waitFor("dismissed", timeout: 1), "the keyring's prompt was cancelled")
            XCTAssertTrue(try Self.text(of: file).contains(#""accessCode" : "12345678""#))
            XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int, 0o600)
            _ = iterateMainContext(timeout: 2) { false }  // the dialog gone, the toast drawn
            ScreenCapture.saveIfAsked(as: "keyring-declined-toast")

            let printer = try XCTUnwrap(app.library.config.printers.first)
            let editing = try printerDialog(of: app, editing: printer)
            defer { gtk_window_destroy(gcast(editing.window)) }
            XCTAssertTrue(iterateMainContext(timeout: 10) { gtk_widget_get_visible(editing.moveSecrets) != 0 },
                          "a keyring answers: the dialog offers to move the code")
            let inFile = "This access code is kept in \(file.path), which only you can read, not in your keyring."
            XCTAssertTrue(editing.accessCode.hintText?.hasSuffix(inFile) ?? false, String(describing: editing.accessCode.hintText))
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "keyring-edit-hint-file")

            XCTAssertNotNil(declining.perform(["cmd": "mode", "mode": "accept"]), "the user made a keyring meanwhile")
            gtk_widget_activate(editing.moveSecrets)
            XCTAssertTrue(iterateMainContext(timeout: 10) { !declining.events(named: "stored").isEmpty },
                          "the code went to the keyring: \(declining.events(named: "call").compactMap { $0.string("method") })")
            let moved = "The access code of “X1C” is now kept in your keyring."
            XCTAssertTrue(iterateMainContext(timeout: 10) { toastTitles(in: window.window).contains(moved) }, "\(toastTitles(in: window.window))")
            let inKeyring = "The access code is kept in your keyring (Secret Service), not in printers.json."
            XCTAssertTrue(iterateMainContext(timeout: 10) { editing.accessCode.hintText?.hasSuffix(inKeyring) ?? false },
                          String(describing: editing.accessCode.hintText))
            XCTAssertEqual(gtk_widget_get_visible(editing.moveSecrets), 0, "nothing left to move")
            XCTAssertFalse(try Self.text(of: file).contains("12345678"), "printers.json holds no code any more")
            XCTAssertEqual(try KeyringSecretStore().accessCode(for: printer.id), "12345678", "the keyring does")
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "keyring-edit-hint-keyring")
        }
        withExtendedLifetime(windowManager) {}
    }

    func testAtStartAKeyInTheFileIsOfferedAndMovesOnlyWhenTheUserAccepts() throws {
        guard isAppChild() else { return try runInAppChild(launcher: AppChild.privateBus) }
        let windowManager = try WindowManager()
        let directory = try makeTemporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": directory.path]
        let octoprint = Printer(name: "Prusa", kind: .octoprint, host: "127.0.0.1", apiPort: closedLoopbackPort(), accessCode: "OCTOKEY123456",
                                cameras: [PrinterCamera(url: "http://127.0.0.1:\(closedLoopbackPort())/webcam/?action=stream")])
        // Saved while no keyring ran: the key is in the file.
        try ConfigStore(directory: ConfigStore.defaultDirectory(environment: environment), secrets: nil).save(AppConfig(printers: [octoprint]))
        let accepting = try TestServer(script: "declining_secret_service.py", arguments: ["--mode", "accept"])
        let store = ConfigStore.standard(environment: environment)
        let file = store.fileURL
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(store: store)
            defer { gtk_window_destroy(gcast(window.window)) }
            let offer = "The API key of “Prusa” is kept in \(file.path), which only you can read. Your keyring can keep it now."
            XCTAssertTrue(iterateMainContext(timeout: 10) { toastTitles(in: window.window).contains(offer) }, "\(toastTitles(in: window.window))")
            _ = iterateMainContext(timeout: 2) { false }
            XCTAssertTrue(accepting.events(named: "stored").isEmpty, "nothing moves unasked")
            XCTAssertTrue(try Self.text(of: file).contains("OCTOKEY123456"))
            ScreenCapture.saveIfAsked(as: "keyring-move-offer")

            let button = try XCTUnwrap(descendants(of: window.window).first {
                PreferencesWidgets.typeName($0) == "GtkButton" && gtk_button_get_label(gcast($0)).map { String(cString: $0) } == "Move to Keyring"
            }, "the offer's button")
            gtk_widget_activate(button)
            XCTAssertTrue(iterateMainContext(timeout: 10) {
                accepting.events(named: "stored").contains { ($0.fields["attributes"] as? [String: String])?["printer-id"] == octoprint.id.uuidString }
            }, "the key went to the keyring")
            XCTAssertTrue(iterateMainContext(timeout: 10) { toastTitles(in: window.window).contains("The API key of “Prusa” is now kept in your keyring.") },
                          "\(toastTitles(in: window.window))")
            XCTAssertFalse(try Self.text(of: file).contains("OCTOKEY123456"), "printers.json holds no key any more")

            let editing = try printerDialog(of: app, editing: try XCTUnwrap(app.library.printer(id: octoprint.id)))
            defer { gtk_window_destroy(gcast(editing.window)) }
            XCTAssertTrue(editing.accessCode.hintText?.hasSuffix("The API key is kept in your keyring (Secret Service), not in printers.json.") ?? false,
                          String(describing: editing.accessCode.hintText))
        }
        withExtendedLifetime(windowManager) {}
    }

    private static func text(of file: URL) throws -> String {
        String(decoding: try Data(contentsOf: file), as: UTF8.self)
    }
}
