import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// Starts the app on the config in `directory` (without keyring) and opens its main window. Each
/// app gets a GApplication id of its own: ids are exported on the session bus.
@MainActor
func startApp(in directory: URL) throws -> (LayerwatchApplication, MainWindow) {
    try startApp(store: ConfigStore(directory: directory, secrets: nil))
}

/// Starts the app on `store` (a keyring of the test's choosing) and opens its main window; its
/// discovery as `discovery` says, on loopback by default.
@MainActor
func startApp(store: ConfigStore, discovery: PrinterDiscovery.Configuration? = nil) throws -> (LayerwatchApplication, MainWindow) {
    let id = "io.github.layerwatch.Test\(UInt32.random(in: 0...UInt32.max))"
    // Discovery listens on loopback only: tests never join a multicast group or touch port 2021,
    // and asks nothing unless a test says what (another lane's fake printers answer on loopback).
    let loopback = discovery ?? PrinterDiscovery.Configuration(bindAddress: "127.0.0.1", endpoints: [.init(port: 0)], asks: [])
    // What notifications remember stays in the test's own directory, never the user's state.
    let app = LayerwatchApplication(store: { store }, id: id, discovery: loopback,
                                    stateDirectory: store.directory.appendingPathComponent("state"))
    app.registerWithoutRunning()
    app.activate()
    return (app, try XCTUnwrap(app.window))
}

/// The whole application against a real config directory: saved printers come back as tabs in
/// their order with the selection, window size and mini windows; edits are saved at once; a corrupt
/// file still starts the app, with a banner.
final class AppPersistenceTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testSavedPrintersTabsSelectionAndMiniWindowsComeBack() throws {
        let server = try TestServer(script: "rtsp_server.py")
        let clip = try TestClips.smpteBars(width: 320, height: 240, fps: 10, seconds: 1)
        let directory = try makeTemporaryDirectory()
        let garage = Printer(name: "Garage", kind: .generic, cameras: [PrinterCamera(url: "rtsp://127.0.0.1:\(server.port)/streaming/live/1")])
        let bench = Printer(name: "Bench", kind: .generic, cameras: [PrinterCamera(url: clip.path)])
        let store = ConfigStore(directory: directory, secrets: nil)
        try store.save(AppConfig(printers: [bench, garage], selectedPrinterID: garage.id,
                                 window: .init(width: 900, height: 640, maximized: false),
                                 miniWindows: [.init(printerID: garage.id, cameraID: nil, width: 400, height: 225)]))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertEqual(window.tabs.all.map(\.name), ["Bench", "Garage"], "tab order restored")
            XCTAssertEqual(window.tabs.selected?.name, "Garage", "selection restored")
            XCTAssertFalse(window.tabs.all.contains { $0.camera!.isDemo }, "no demo camera when printers exist")
            var width: Int32 = 0, height: Int32 = 0
            gtk_window_get_default_size(gcast(window.window), &width, &height)
            XCTAssertEqual([width, height], [900, 640])
            let mini = try XCTUnwrap(app.miniWindows[garage.id], "the mini window is restored")
            XCTAssertEqual(mini.size.width, 400)
            XCTAssertTrue(iterateMainContext(timeout: 15) { window.tabs.selected?.state == .live })
            XCTAssertEqual(server.events(named: "client").count, 1, "tab and restored mini window share one connection")
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "restored-tabs-and-mini-window")

            // Reordering and selecting are saved at once.
            let benchTab = try XCTUnwrap(adw_tab_view_get_nth_page(gcast(window.tabs.view), 0))
            adw_tab_view_reorder_page(gcast(window.tabs.view), benchTab, 1)
            app.flushSaves()
            let reloaded = ConfigStore(directory: directory, secrets: nil).load().config
            XCTAssertEqual(reloaded.printers.map(\.name), ["Garage", "Bench"])
            XCTAssertEqual(reloaded.miniWindows.map(\.printerID), [garage.id])
        }
    }

    func testCorruptConfigStartsWithTheWelcomePageAndABannerAndKeepsTheFile() throws {
        let directory = try makeTemporaryDirectory()
        let file = directory.appendingPathComponent("printers.json")
        try Data("{ this is not json".utf8).write(to: file)
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let banner = try XCTUnwrap(window.bannerText)
            XCTAssertTrue(banner.contains("could not read its printer list"), banner)
            XCTAssertTrue(window.isWelcomeShown, "the app still starts, on the welcome page")
            let kept = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("printers.json.broken-") }
            XCTAssertEqual(kept.count, 1)
            XCTAssertEqual(try Data(contentsOf: directory.appendingPathComponent(kept[0])), Data("{ this is not json".utf8))
        }
    }

    func testAddingAPrinterThroughTheDialogSavesItAndReplacesTheDemo() throws {
        let server = try TestServer(script: "mjpeg_server.py")
        let directory = try makeTemporaryDirectory()
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertTrue(window.isWelcomeShown)
            app.showDemo()
            XCTAssertTrue(window.tabs.all.first?.camera!.isDemo ?? false)

            let dialog = try printerDialog(of: app)
            dialog.selectKind(.generic)
            dialog.save()
            XCTAssertEqual(dialog.name.errorText, "Enter a name for this printer, for example “X1C workshop”.")
            XCTAssertNotNil(dialog.url.errorText, "each wrong field says so under itself")
            dialog.name.text = "Klipper"
            dialog.url.text = "http://127.0.0.1:\(server.port)/?action=stream"
            XCTAssertNil(dialog.name.errorText, "messages follow the user's edits")
            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 15) { dialog.testResultText.hasPrefix("Connected: MJPEG 640×480") },
                          dialog.testResultText)
            dialog.save()

            XCTAssertEqual(window.tabs.all.map(\.name), ["Klipper"], "the printer's tab replaced the demo")
            XCTAssertTrue(iterateMainContext(timeout: 10) { window.tabs.selected?.state == .live })
            app.flushSaves()
            let saved = ConfigStore(directory: directory, secrets: nil).load().config
            XCTAssertEqual(saved.printers.map(\.name), ["Klipper"])
            let mode = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("printers.json").path)[.posixPermissions] as? Int
            XCTAssertEqual(mode, 0o600)
        }
    }

    func testClosingASavedPrintersTabKeepsItAndOnlyRemoveAsks() throws {
        let clip = try TestClips.smpteBars(width: 160, height: 120, fps: 10, seconds: 1)
        let directory = try makeTemporaryDirectory()
        let printer = Printer(name: "Shelf", kind: .generic, cameras: [PrinterCamera(url: clip.path)])
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer]))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            window.tabs.requestCloseSelected()
            XCTAssertNil(app.editor.pendingRemoval, "closing a tab asks nothing")
            XCTAssertTrue(window.tabs.open.isEmpty)
            app.flushSaves()
            XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config.printers.count, 1, "the printer stays")

            app.editor.confirmRemoval(of: printer, over: window.window)
            let confirmation = try XCTUnwrap(app.editor.pendingRemoval, "removing asks first")
            adw_message_dialog_response(gcast(confirmation), "cancel")
            app.flushSaves()
            XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config.printers.count, 1, "cancel keeps it")

            app.editor.confirmRemoval(of: printer, over: window.window)
            adw_message_dialog_response(gcast(try XCTUnwrap(app.editor.pendingRemoval)), "confirm")
            app.flushSaves()
            XCTAssertEqual(window.tabs.all.count, 0)
            XCTAssertTrue(window.isWelcomeShown, "no printer left: the welcome")
            let saved = ConfigStore(directory: directory, secrets: nil).load().config
            XCTAssertEqual(saved.printers.count, 0)
            XCTAssertEqual(saved.closedTabs, [], "nor its closed tab")
        }
    }

    func testDiscoveredPrinterPrefillsTheDialog() throws {
        MainActor.assumeIsolated {
            let dialog = PrinterDialog(parent: nil, editing: nil)
            defer { gtk_window_destroy(gcast(dialog.window)) }
            let found = DiscoveredPrinter(serial: "01P00A123456789", address: "192.168.1.44", modelCode: "C12",
                                          name: "Garage P1S", connection: .lan)
            dialog.showDiscovered([found])
            dialog.prefill(from: found)
            XCTAssertEqual(dialog.name.text, "Garage P1S")
            XCTAssertEqual(dialog.host.text, "192.168.1.44")
            XCTAssertEqual(dialog.serial.text, "01P00A123456789")
            XCTAssertEqual(dialog.draft.kind, .bambuJPEG(.p1s), "a P1S uses the JPEG-over-TLS camera")
            dialog.accessCode.text = "12ab"
            dialog.save()
            XCTAssertEqual(dialog.accessCode.errorText, "The access code has 8 characters; this one has 4.")
        }
    }

    func testPrintersAnnouncingThemselvesAppearInTheAddDialog() throws {
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            let port = try discoveryPort(of: app, closing: dialog)
            LoopbackSender().send(SSDPAnnouncement.bytes(serial: "01P00A123456789", name: "Garage P1S", location: "192.168.1.44"), to: port)
            XCTAssertTrue(iterateMainContext(timeout: 5) { dialog.discoveredPrinters.map(\.serial) == ["01P00A123456789"] })
            gtk_window_destroy(gcast(dialog.window))
            XCTAssertNotNil(app.editor.discovery, "the welcome page still lists the printers on the network")
            app.showDemo()
            XCTAssertNil(app.editor.discovery, "discovery stops with the dialog and the welcome page")
        }
    }

    func testEditingAPrinterKeepsItsTabInPlace() throws {
        let clip = try TestClips.smpteBars(width: 160, height: 120, fps: 10, seconds: 1)
        let directory = try makeTemporaryDirectory()
        let printers = ["First", "Second"].map { Printer(name: $0, kind: .generic, cameras: [PrinterCamera(url: clip.path)]) }
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: printers))
        try withPrinterDialog(in: directory, editing: printers[0]) { app, window, dialog in
            dialog.name.text = "First, renamed"
            dialog.save()
            XCTAssertEqual(window.tabs.all.map(\.name), ["First, renamed", "Second"], "the edited tab stays first")
            app.flushSaves()
            XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config.printers.map(\.name),
                           ["First, renamed", "Second"])
        }
    }

    func testTheWindowsObjectsAreFreedWithTheWindow() throws {
        let directory = try makeTemporaryDirectory()
        try MainActor.assumeIsolated {
            let (tabView, tabBar) = try openAndClose(in: directory)
            XCTAssertTrue(iterateMainContext(timeout: 3) { tabView.isDisposed && tabBar.isDisposed },
                          "the tab view and bar go with their window")
        }
    }

    /// Opens the app's window, watches its tab view and bar, and destroys the window.
    @MainActor
    private func openAndClose(in directory: URL) throws -> (DisposalWatch, DisposalWatch) {
        let (_, window) = try startApp(in: directory)
        let watches = (DisposalWatch(window.tabs.view), DisposalWatch(window.tabs.bar))
        gtk_window_destroy(gcast(window.window))
        return watches
    }
}
