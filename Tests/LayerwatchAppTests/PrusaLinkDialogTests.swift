import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// Adding a Prusa printer (PrusaLink) as a user would, against the fake PrusaLink
/// (Tests/Servers/prusalink_server.py): the form's fields in PrusaLink's words, Test Connection
/// logging in with the password, a wrong password said under its field and not saved; saved
/// without a camera, its tab and farm tile show its print and the job's thumbnail; a printer that
/// wants someone at its screen (ATTENTION) and a finished print are notified
/// (Tests/Servers/notification_server.py).
final class PrusaLinkDialogTests: XCTestCase {
    private static let password = "Pr1ntPass"

    override func setUp() {
        AppTestEnvironment.prepare()
    }

    private func printingPrusa() throws -> TestServer {
        let server = try TestServer(script: "prusalink_server.py", arguments: ["--password", Self.password])
        addTeardownBlock { server.stop() }
        XCTAssertEqual(server.perform(["cmd": "thumbnail", "width": 313, "height": 173])?.name, "done")
        XCTAssertEqual(server.perform(["cmd": "set", "printer": ["state": "PRINTING", "temp_nozzle": 229.8, "target_nozzle": 230,
                                                                 "temp_bed": 90.1, "target_bed": 90],
                                       "job": ["id": 21, "progress": 42, "time_remaining": 3120,
                                               "file": ["name": "HOOK~1.BGC", "display_name": "wall_hook_PETG.bgcode"]]])?.name, "done")
        return server
    }

    func testAddingAPrusaWithItsPasswordShowsItsPrintAndThumbnail() throws {
        let prusa = try printingPrusa()
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            dialog.select(.prusaLink)
            XCTAssertEqual([dialog.name, dialog.host, dialog.apiPort, dialog.accessCode, dialog.cameraRows.field].map(\.isShown),
                           [true, true, true, true, true])
            XCTAssertEqual([dialog.serial, dialog.variantRow].map(\.isShown), [false, false])
            XCTAssertEqual(dialog.accessCode.titleText, "Password")
            XCTAssertTrue(dialog.accessCode.hintText?.hasPrefix("On the printer: Settings → Network → PrusaLink shows the password (the user name is “maker”).") == true,
                          dialog.accessCode.hintText ?? "no hint")
            XCTAssertEqual(dialog.host.hintText, "On the printer: Settings → Network shows its address.")
            dialog.fill(name: "Core One", host: "127.0.0.1", port: prusa.port, code: Self.password)
            XCTAssertTrue(dialog.isValid, "\(dialog.blockingProblems)")
            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 20) { dialog.connectionTest.isDone }, dialog.testResultText)
            XCTAssertTrue(dialog.testResultText.hasPrefix("Connected"), dialog.testResultText)
            XCTAssertEqual(dialog.fieldsByProblem.compactMap { $0.1.errorText }, [], "nothing marked")
            XCTAssertTrue(prusa.events(named: "request").contains { $0.string("auth") == "digest" && $0.fields["authorized"] as? Bool == true })
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "prusalink-dialog")

            dialog.save()
            XCTAssertEqual(window.tabs.all.map(\.name), ["Core One"])
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertEqual(page.cameras.count, 0)
            let area = try XCTUnwrap(page.noCamera)
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.status.strip.stateText == "Printing" && area.thumbnailSize != nil },
                          "\(String(describing: page.status.strip.stateText)) \(String(describing: area.thumbnailSize))")
            XCTAssertEqual(page.status.strip.percentText, "42 %")
            XCTAssertEqual(page.status.strip.jobText, "wall_hook_PETG.bgcode")
            XCTAssertEqual(area.thumbnailSize?.width, 313, "the texture is the picture PrusaLink served")
            XCTAssertEqual(area.thumbnailSize?.height, 173)
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.isEnabled("pause-print") }, "its print controls work")
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "prusalink-tab")

            window.showFarm(true)
            let tile = try XCTUnwrap(window.farm.tile(id: page.printerID))
            XCTAssertTrue(iterateMainContext(timeout: 10) { tile.noCamera?.thumbnailSize != nil && tile.status.summary?.state == .printing })
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "prusalink-farm")

            app.flushSaves()
            let saved = try XCTUnwrap(ConfigStore(directory: directory, secrets: nil).load().config.printers.first)
            XCTAssertEqual(saved.kind, .prusaLink)
            XCTAssertEqual(saved.statusEndpoint, .prusaLink(host: "127.0.0.1", port: prusa.port, password: Self.password))
            XCTAssertEqual(saved.cameras, [])
        }
    }

    func testAWrongPasswordIsSaidUnderItsFieldAndNotSaved() throws {
        let prusa = try printingPrusa()
        try withPrinterDialog(in: try makeTemporaryDirectory()) { _, window, dialog in
            dialog.fill(.prusaLink, name: "MK4", host: "127.0.0.1", port: prusa.port, code: "WrongPass9")
            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 20) { dialog.connectionTest.isDone }, dialog.testResultText)
            XCTAssertEqual(dialog.accessCode.errorText, "The password is wrong — check it on the printer's screen and try again.")
            XCTAssertTrue(dialog.testResultText.contains("Status: the printer refused the password."), dialog.testResultText)
            XCTAssertEqual(gtk_widget_get_sensitive(dialog.saveButton), 0, "a rejected password is not added")
            XCTAssertFalse(dialog.testResultText.contains("WrongPass9"), dialog.testResultText)
            XCTAssertEqual(prusa.events(named: "request").filter { $0.string("auth") == "digest" }.count, 1, "asked once")
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "prusalink-dialog-wrong-password")
            XCTAssertEqual(window.tabs.all.count, 0)
        }
    }

    func testAPrinterThatNeedsSomeoneAndAFinishedPrintAreNotified() throws {
        let notifications = try notificationServer()
        let prusa = try printingPrusa()
        let printer = Printer(name: "XL", kind: .prusaLink, host: "127.0.0.1", apiPort: prusa.port, accessCode: Self.password, cameras: [])
        let (config, state) = try directories(with: [printer])
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(config: config, state: state)
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 20) { page.status.strip.stateText == "Printing" })
            XCTAssertEqual(prusa.perform(["cmd": "set", "printer": ["state": "ATTENTION",
                                                                    "status_printer": ["ok": false, "message": "Filament runout"]]])?.name, "done")
            XCTAssertTrue(iterateMainContext(timeout: 10) { notifications.events(named: "notification").count == 1 })
            let attention = try XCTUnwrap(notifications.events(named: "notification").first)
            XCTAssertEqual(attention.string("title"), "XL: print paused")
            XCTAssertEqual(attention.string("body"), "wall_hook_PETG.bgcode\nThe printer needs you: Filament runout — see its screen.")
            XCTAssertEqual(attention.string("priority"), "high", "it asks for someone, as a pause does")

            XCTAssertEqual(prusa.perform(["cmd": "set", "printer": ["state": "FINISHED", "status_printer": NSNull()], "job": ["progress": 100]])?.name, "done")
            XCTAssertTrue(iterateMainContext(timeout: 10) { notifications.events(named: "notification").count == 2 })
            let finished = try XCTUnwrap(notifications.events(named: "notification").last)
            XCTAssertEqual(finished.string("title"), "XL: print finished")
            XCTAssertEqual(finished.string("body"), "wall_hook_PETG.bgcode")
        }
    }

    /// Where its password is kept, moved or removed, it is called a password.
    func testItsSecretIsCalledAPassword() {
        let printer = Printer(name: "XL", kind: .prusaLink, host: "10.0.0.7", accessCode: Self.password,
                              cameras: [PrinterCamera(url: "rtsp://viewer:c4mPass@10.0.0.8/live")])
        XCTAssertEqual(RemovalText.body(for: printer), "Its settings, password and camera password will be deleted from this computer.")
        var bare = printer
        bare.cameras = []
        XCTAssertEqual(RemovalText.body(for: bare), "Its settings and password will be deleted from this computer.")
        XCTAssertEqual(SecretsNews.moved([bare]), "The password of “XL” is now kept in your keyring.")
        XCTAssertEqual(SecretsNews.offer([bare], path: "/p/printers.json"),
                       "The password of “XL” is kept in /p/printers.json, which only you can read. Your keyring can keep it now.")
    }

    /// With its camera by URL (a Buddy3D camera's stream; here an MJPEG one), its print shows on
    /// the tab, the farm tile and the mini window alike.
    func testWithACameraItsPrintShowsOnTheTabTileAndMiniWindow() throws {
        let windowManager = try WindowManager()
        defer { withExtendedLifetime(windowManager) {} }
        let prusa = try printingPrusa()
        let camera = try TestServer(script: "mjpeg_server.py", arguments: ["--width", "640", "--height", "360", "--fps", "5"])
        addTeardownBlock { camera.stop() }
        let printer = Printer(name: "Core One", kind: .prusaLink, host: "127.0.0.1", apiPort: prusa.port, accessCode: Self.password,
                              cameras: [PrinterCamera(name: "Buddy3D", url: "http://127.0.0.1:\(camera.port)/?action=stream")])
        let (config, state) = try directories(with: [printer])
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(config: config, state: state)
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 20) { page.state == .live && page.status.strip.stateText == "Printing" },
                          "camera \(page.state), status \(String(describing: page.status.strip.stateText))")
            window.showFarm(true)
            let (strips, mini) = try statusStripsEverywhere(of: page, in: app, window: window)
            defer { mini.close() }
            XCTAssertTrue(iterateMainContext(timeout: 10) { strips.allSatisfy { $0.percentText == "42 %" } }, "\(strips.map(\.percentText))")
            XCTAssertEqual(strips.dropLast().map(\.stateText), ["Printing", "Printing"], "the mini window's compact strip shows no chip while printing")
            XCTAssertEqual(strips.dropLast().map(\.jobText), ["wall_hook_PETG.bgcode", "wall_hook_PETG.bgcode"])
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "prusalink-farm-and-mini")
        }
    }

    /// A Prusa answering the DNS-SD question (to a fake responder on 127.0.0.1, never the
    /// multicast address) is offered under "On your network", and its row fills the form in.
    func testAPrusaOnTheNetworkIsOfferedAndFillsTheFormIn() throws {
        let ask = try XCTUnwrap(DiscoveryAsk.everyFamily.first { $0.port == 5353 }, "the Prusa family asks")
        let responder = try XCTUnwrap(LoopbackResponder { question in
            question == ask.payload ? [DiscoveryAnswers.prusaLink(name: "Core One bay 2", txt: ["serial=CZPX4523X004XK12345"])] : nil
        })
        defer { responder.stop() }
        let configuration = PrinterDiscovery.Configuration(
            bindAddress: "127.0.0.1", endpoints: [.init(port: 0)],
            asks: [DiscoveryAsk(payload: ask.payload, port: responder.port, address: ask.address)], askAddress: "127.0.0.1", askInterval: 3)
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(store: ConfigStore(directory: try makeTemporaryDirectory(), secrets: nil), discovery: configuration)
            defer { gtk_window_destroy(gcast(window.window)) }
            let dialog = try printerDialog(of: app)
            defer { gtk_window_destroy(gcast(dialog.window)) }
            dialog.select(.prusaLink)
            XCTAssertTrue(iterateMainContext(timeout: 10) { dialog.discoveredPrinters.map(\.identifier) == ["CZPX4523X004XK12345"] },
                          "\(dialog.discoveredPrinters)")
            let row = try XCTUnwrap(dialog.discovered.row(serial: "CZPX4523X004XK12345"))
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "prusalink-dialog-discovered")
            adw_action_row_activate(gcast(row))
            XCTAssertEqual(dialog.host.text, "127.0.0.1")
            XCTAssertEqual(dialog.name.text, "Core One bay 2")
            XCTAssertEqual(dialog.draft.kind, .prusaLink, "its kind from the registry")
            XCTAssertEqual(dialog.accessCode.titleText, "Password", "the password is still the user's to type")
        }
    }
}
