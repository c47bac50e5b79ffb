import CGtk
@testable import CameraKit
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// The farm view in the real app under Xvfb, against real loopback cameras and printers: a tile per
/// printer showing its own camera on the printer's one connection (shared with its tab and mini
/// window), tiles needing attention first, the keyboard, the grid reflowing from one to four
/// columns while no tile's stream restarts, and tiles growing to fill a large window.
final class FarmViewTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    /// A loopback camera and how many connections it has accepted so far.
    private struct LoopbackCamera {
        let server: TestServer
        let url: String
        let connectionEvent: String

        var connections: Int { server.events(named: connectionEvent).count }
    }

    /// Six cameras of the three kinds a farm has: H.264 over RTSP (two sizes), HTTP MJPEG and a
    /// Bambu P1-style JPEG-over-TLS camera.
    private func sixCameras() throws -> [LoopbackCamera] {
        func start(_ script: String, _ arguments: [String]) throws -> TestServer {
            let server = try TestServer(script: script, arguments: arguments)
            addTeardownBlock { server.stop() }
            return server
        }
        var cameras: [LoopbackCamera] = []
        for size in [("320", "240"), ("640", "360"), ("320", "180")] {
            let server = try start("rtsp_server.py", ["--width", size.0, "--height", size.1, "--fps", "10"])
            cameras.append(LoopbackCamera(server: server, url: "rtsp://127.0.0.1:\(server.port)/streaming/live/1", connectionEvent: "client"))
        }
        for _ in 0..<2 {
            let server = try start("mjpeg_server.py", ["--width", "320", "--height", "240", "--fps", "5"])
            cameras.append(LoopbackCamera(server: server, url: "http://127.0.0.1:\(server.port)/?action=stream", connectionEvent: "request"))
        }
        let bambu = try start("bambu_jpeg_server.py", ["--width", "640", "--height", "360", "--fps", "0.5"])
        cameras.append(LoopbackCamera(server: bambu, url: "bambu-jpeg://127.0.0.1:\(bambu.port)?code=12345678", connectionEvent: "client"))
        return cameras
    }

    @MainActor
    private func startApp(with printers: [Printer], farm: Bool = true, width: Int = 1500, height: Int = 1000) throws -> (LayerwatchApplication, MainWindow) {
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(
            AppConfig(printers: printers, window: .init(width: width, height: height, maximized: false),
                      farm: .init(shown: farm, attentionFirst: true)))
        return try LayerwatchAppTests.startApp(in: directory)
    }

    /// Three fake Moonraker printers, idle until told otherwise.
    private func threeMoonrakers() throws -> [TestServer] {
        try (0..<3).map { _ in
            let server = try TestServer(script: "moonraker_server.py")
            addTeardownBlock { server.stop() }
            return server
        }
    }

    /// Klipper printers Anvil, Bolt and Cog on `moonrakers`, each showing `camera` (a file).
    private func anvilBoltAndCog(on moonrakers: [TestServer], camera: URL) -> [Printer] {
        zip(["Anvil", "Bolt", "Cog"], moonrakers).map { name, moonraker in
            Printer(name: name, kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port, cameras: [PrinterCamera(url: camera.path)], notifies: false)
        }
    }

    /// What a Moonraker fake reports for a print of `job` under way.
    private func printing(_ job: String, progress: Double, printed: Double) -> [String: Any] {
        ["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": job, "print_duration": printed],
                                  "display_status": ["progress": progress]]]
    }

    /// SMPTE bars put green at the middle of the picture's upper part, whatever the size.
    @MainActor
    private func showsBars(_ tile: FarmTile) -> Bool {
        guard let image = RenderedImage(of: tile.surface!.widget) else { return false }
        let pixel = image.rgb(x: image.width / 2, y: image.height * 3 / 10)
        return pixel.g > 120 && pixel.r < 90 && pixel.b < 90
    }

    func testEveryTileShowsItsOwnCameraOnThePrintersOneConnection() throws {
        let windowManager = try WindowManager()
        let cameras = try sixCameras()
        let printers = cameras.enumerated().map { Printer(name: "Printer \($0.offset + 1)", kind: .generic, cameras: [PrinterCamera(url: $0.element.url)]) }
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(with: printers)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertTrue(window.isFarmShown, "the saved choice opens the farm view")
            XCTAssertEqual(gtk_widget_get_visible(window.tabs.bar), 0, "no tab bar over the farm")
            XCTAssertEqual(String(cString: gtk_window_get_title(gcast(window.window))), "Farm — Layerwatch")
            let tiles = window.farm.tiles
            XCTAssertEqual(tiles.map(\.camera!.name), printers.map(\.name))
            XCTAssertTrue(iterateMainContext(timeout: 30) { tiles.allSatisfy { $0.surface!.state == .live && $0.surface!.shownFrame != nil } },
                          "every tile live: \(tiles.map { "\($0.camera!.name) \($0.surface!.state)" })")
            XCTAssertTrue(iterateMainContext(timeout: 10) { tiles.allSatisfy(showsBars) },
                          "the bars read back in every tile: \(tiles.filter { !showsBars($0) }.map(\.camera!.name))")
            XCTAssertEqual(window.farm.grid.columns, 3, "1500×1000 px: six tiles fit in two rows of three, bigger than four columns' tiles")
            let p1 = try XCTUnwrap(tiles.last), h264 = tiles[0]
            XCTAssertTrue(iterateMainContext(timeout: 5) { p1.surface!.frameAgeText?.hasSuffix("s ago") ?? false },
                          "a P1-style camera's tile says how old its picture is")
            XCTAssertNil(h264.surface!.frameAgeText, "a 10 fps camera's does not")

            // Each camera is converted at its tile's size, not the stream's.
            let firstTile = try XCTUnwrap(tiles.first)
            let tileWidth = Int(gtk_widget_get_width(firstTile.surface!.widget) * gtk_widget_get_scale_factor(firstTile.surface!.widget))
            XCTAssertTrue(iterateMainContext(timeout: 5) { (firstTile.surface!.session.stats.outputSize?.width ?? .max) <= tileWidth },
                          "\(String(describing: firstTile.surface!.session.stats.outputSize)) for a \(tileWidth) px tile")

            // The tabs (hidden behind the farm) and a mini window per printer: still one connection each.
            for tile in tiles { app.togglePopOut(tile.camera!) }
            defer { app.miniWindows.all.forEach { $0.close() } }
            XCTAssertEqual(app.miniWindows.all.count, 6)
            XCTAssertTrue(iterateMainContext(timeout: 15) { app.miniWindows.all.allSatisfy { $0.surface.shownFrame != nil } })
            for (tile, camera) in zip(tiles, cameras) {
                XCTAssertEqual(tile.surface!.session.consumerCount, 3, "\(tile.camera!.name): tab, tile and mini window")
                XCTAssertTrue(tile.surface!.session === window.tabs.page(id: tile.camera!.printerID)?.session)
                XCTAssertEqual(camera.connections, 1, "\(tile.camera!.name) (\(camera.url.prefix(4))) sees one client")
            }
            // Every tile keeps updating with the mini windows open.
            let shown = tiles.map { $0.surface!.shownFrame }
            XCTAssertTrue(iterateMainContext(timeout: 10) { zip(tiles, shown).allSatisfy { $0.surface!.shownFrame !== $1 } },
                          "tiles updating: \(zip(tiles, shown).filter { $0.surface!.shownFrame === $1 }.map(\.0.camera!.name))")
        }
        withExtendedLifetime(windowManager) {}
    }

    /// A Bambu print five minutes from its end is "Finishing soon" until a fatal HMS alert says it
    /// may not finish, and again once the alert is gone.
    func testAPrinterWithAFatalAlertIsNeverFinishingSoon() throws {
        var (mqtt, printer) = try fakeP1S(code: "31415926", on: randomLoopbackAddress())
        printer.notifies = false // NotificationTests must be the first to send one (see below)
        mqtt.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Hinge", "mc_percent": 95, "mc_remaining_time": 5]])
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(with: [printer])
            defer { gtk_window_destroy(gcast(window.window)) }
            let tile = try XCTUnwrap(window.farm.tile(id: printer.id))
            XCTAssertTrue(iterateMainContext(timeout: 20) { tile.isMarkedFinishing }, "five minutes left: finishing soon")
            mqtt.send(["cmd": "set", "print": ["hms": [["attr": 0x0300_0100, "code": 0x0001_0007]]]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { !tile.status.strip.alerts.rowsShown.isEmpty }, "the alert is shown")
            XCTAssertTrue(iterateMainContext(timeout: 3) { !tile.isMarkedFinishing }, "a fatal alert: not finishing soon")
            mqtt.send(["cmd": "set", "print": ["hms": []]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { tile.isMarkedFinishing }, "the alert cleared: finishing soon again")
        }
    }

    func testAPrintThatPausesMovesToTheFrontAndIsFramed() throws {
        let camera = try TestServer(script: "rtsp_server.py", arguments: ["--width", "320", "--height", "180", "--fps", "10", "--paths", "3"])
        addTeardownBlock { camera.stop() }
        let moonrakers = try threeMoonrakers()
        // Idle; printing with an hour left; printing with five minutes left.
        moonrakers[1].send(printing("bracket.gcode", progress: 0.5, printed: 3600))
        moonrakers[2].send(printing("clip.gcode", progress: 0.9, printed: 2700))
        let paths = ["/streaming/live/1", "/streaming/live/1/2", "/streaming/live/1/3"]
        let printers = zip(["Anvil", "Bolt", "Cog"], zip(moonrakers, paths)).map { name, peer in
            // No notifications: GLib picks its notification backend once per process, and
            // NotificationTests, later in the same process, needs to be the first to send one.
            Printer(name: name, kind: .klipper, host: "127.0.0.1", apiPort: peer.0.port, cameras: [PrinterCamera(url: "rtsp://127.0.0.1:\(camera.port)\(peer.1)")], notifies: false)
        }
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(with: printers)
            defer { gtk_window_destroy(gcast(window.window)) }
            let farm = window.farm
            @MainActor func order() -> [String] { farm.shownOrder.map { $0.camera!.name } }
            XCTAssertTrue(iterateMainContext(timeout: 15) { order() == ["Cog", "Bolt", "Anvil"] },
                          "printing by least time left, then idle: \(order())")
            let cog = try XCTUnwrap(farm.tile(id: printers[2].id)), anvil = try XCTUnwrap(farm.tile(id: printers[0].id))
            XCTAssertTrue(cog.isMarkedFinishing, "five minutes left: finishing soon")
            XCTAssertFalse(try XCTUnwrap(farm.tile(id: printers[1].id)).isMarkedFinishing)
            XCTAssertEqual(cog.status.strip.stateText, "Printing")
            XCTAssertEqual(cog.status.strip.percentText, "90 %")
            XCTAssertTrue(iterateMainContext(timeout: 15) { farm.tiles.allSatisfy { $0.surface!.state == .live } })
            let pictures = farm.tiles.map(\.surface!.picture)
            let connections = camera.events(named: "client").count
            XCTAssertEqual(connections, 3)

            moonrakers[0].send(printing("anvil.gcode", progress: 0.3, printed: 600))
            moonrakers[0].send(["cmd": "set", "status": ["print_stats": ["state": "paused"]]])
            XCTAssertTrue(iterateMainContext(timeout: 15) { order().first == "Anvil" }, "a pause comes first: \(order())")
            XCTAssertEqual(order(), ["Anvil", "Cog", "Bolt"])
            XCTAssertTrue(anvil.isFramed, "a paused print frames its tile")
            XCTAssertFalse(cog.isFramed)

            // Bolt's Moonraker goes away: in trouble, right after the paused print, in a frame of its own.
            moonrakers[1].stop()
            XCTAssertTrue(iterateMainContext(timeout: 15) { order() == ["Anvil", "Bolt", "Cog"] }, "a failing status comes next: \(order())")
            let bolt = try XCTUnwrap(farm.tile(id: printers[1].id))
            XCTAssertTrue(bolt.isFramedAsTrouble)
            XCTAssertFalse(bolt.isFramed || anvil.isFramedAsTrouble || cog.isFramedAsTrouble)

            // Your own order when asked; either way no tile was made again or reconnected.
            app.setAttentionFirst(false)
            XCTAssertEqual(order(), ["Anvil", "Bolt", "Cog"])
            XCTAssertFalse(app.library.config.farm.attentionFirst, "remembered")
            XCTAssertEqual(farm.tiles.map(\.surface!.picture), pictures)
            XCTAssertTrue(farm.tiles.allSatisfy { $0.surface!.lifecycle.dismantles == 0 && $0.surface!.state == .live })
            XCTAssertEqual(camera.events(named: "client").count, connections, "reordering never reconnects")
        }
    }

    func testTheTilesHoldStillWhileATilesMenuIsOpenAndThePointerIsAtWork() throws {
        let windowManager = try WindowManager()
        let clip = try TestClips.smpteBars(width: 320, height: 180, fps: 10, seconds: 60)
        let moonrakers = try threeMoonrakers()
        let paused: [String: Any] = ["cmd": "set", "status": ["print_stats": ["state": "paused"]]]
        // Idle; printing with an hour left; printing with five minutes left.
        moonrakers[1].send(printing("bracket.gcode", progress: 0.5, printed: 3600))
        moonrakers[2].send(printing("clip.gcode", progress: 0.9, printed: 2700))
        let printers = anvilBoltAndCog(on: moonrakers, camera: clip)
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(with: printers, width: 1500, height: 900)
            defer { gtk_window_destroy(gcast(window.window)) }
            let farm = window.farm
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window.window))))
            @MainActor func order() -> [String] { farm.shownOrder.map { $0.camera!.name } }
            // Laid out for the window's height too: three tiles in 1500×900 are two rows of two columns.
            XCTAssertTrue(iterateMainContext(timeout: 15) { order() == ["Cog", "Bolt", "Anvil"] && farm.grid.frames.count == 3 && farm.grid.columns == 2 },
                          "printing by least time left, then idle: \(order()), \(farm.grid.columns) columns")
            let anvil = try XCTUnwrap(farm.tile(id: printers[0].id)), bolt = try XCTUnwrap(farm.tile(id: printers[1].id))
            /// The printer whose tile is at `point` of the grid now.
            @MainActor func printer(at point: graphene_point_t) -> String? {
                let frames = farm.grid.frames
                let index = frames.firstIndex { Float($0.x) <= point.x && point.x < Float($0.x + $0.width) && Float($0.y) <= point.y && point.y < Float($0.maxY) }
                return index.map { farm.shownOrder[$0].camera!.name }
            }

            // A right-click on Bolt's tile opens its menu; meanwhile Anvil pauses, which puts it first.
            let inTile = (x: Double(gtk_widget_get_width(bolt.widget)) / 2, y: Double(gtk_widget_get_height(bolt.widget)) / 3)
            var local = graphene_point_t(x: Float(inTile.x), y: Float(inTile.y)), underPointer = graphene_point_t()
            XCTAssertNotEqual(gtk_widget_compute_point(bolt.widget, farm.grid.widget, &local, &underPointer), 0)
            XCTAssertEqual(Pointer(widget: bolt.widget).at(inTile.x, inTile.y, then: ["click", "3"]), 0, "xdotool")
            XCTAssertTrue(iterateMainContext(timeout: 5) { bolt.isMenuOpen }, "a right-click opens the tile's menu")
            moonrakers[0].send(printing("anvil.gcode", progress: 0.3, printed: 600))
            moonrakers[0].send(paused)
            XCTAssertTrue(iterateMainContext(timeout: 10) { anvil.isFramed }, "Anvil's pause has arrived")
            // Longer than the hold after the click: the open menu alone keeps the order.
            _ = iterateMainContext(timeout: UInt32(FarmHold.seconds) + 1) { false }
            XCTAssertTrue(bolt.isMenuOpen)
            XCTAssertEqual(order(), ["Cog", "Bolt", "Anvil"], "no tile moves while a tile's menu is open")
            XCTAssertEqual(printer(at: underPointer), "Bolt", "the tile under the pointer is still Bolt's")

            // The menu closes: the order holds a few seconds more, then Anvil comes first.
            XCTAssertEqual(Keyboard.press("Escape", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 3) { !bolt.isMenuOpen })
            let closed = Date()
            XCTAssertTrue(iterateMainContext(timeout: UInt32(FarmHold.seconds) + 5) { order() == ["Anvil", "Cog", "Bolt"] },
                          "reordered once the hold is over: \(order())")
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(closed), FarmHold.seconds - 0.5, "not before the hold is over")

            // The pointer moving over the grid holds the order too: Bolt pauses as well (it goes before Cog).
            XCTAssertEqual(Pointer(widget: farm.grid.widget).at(Double(underPointer.x), Double(underPointer.y)), 0, "xdotool")
            let moved = Date()
            let atPointer = printer(at: underPointer)
            moonrakers[1].send(paused)
            XCTAssertTrue(iterateMainContext(timeout: 10) { bolt.isFramed }, "Bolt's pause has arrived")
            XCTAssertEqual(order(), ["Anvil", "Cog", "Bolt"], "no tile moves right after the pointer did")
            XCTAssertEqual(printer(at: underPointer), atPointer, "the same printer under the pointer")
            XCTAssertTrue(iterateMainContext(timeout: UInt32(FarmHold.seconds) + 5) { order() == ["Anvil", "Bolt", "Cog"] },
                          "reordered once the pointer rests: \(order())")
            XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(moved), FarmHold.seconds - 0.5)

            // A dialog a tile's action opened holds it as its menu did: Cog's stop question is up
            // while Bolt resumes with an hour left (it goes after Cog).
            farm.focus(printers[2].id)
            XCTAssertTrue(iterateMainContext(timeout: 3) { window.tabs.selected?.name == "Cog" })
            gtk_widget_activate_action_variant(window.window, "printer.stop-print", nil)
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.printCommands.pendingStop != nil }, "the stop question")
            moonrakers[1].send(printing("bracket.gcode", progress: 0.5, printed: 3600))
            XCTAssertTrue(iterateMainContext(timeout: 10) { !bolt.isFramed }, "Bolt prints again")
            _ = iterateMainContext(timeout: UInt32(FarmHold.seconds) + 1) { false }
            XCTAssertEqual(order(), ["Anvil", "Bolt", "Cog"], "no tile moves while a tile's dialog is open")
            // Escape answers Cancel and closes it.
            let question = try XCTUnwrap(app.printCommands.pendingStop)
            XCTAssertEqual(Keyboard.press("Escape", window: UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(question))))), 0)
            XCTAssertTrue(iterateMainContext(timeout: 3) { app.printCommands.pendingStop == nil }, "the question is gone")
            XCTAssertTrue(iterateMainContext(timeout: UInt32(FarmHold.seconds) + 5) { order() == ["Anvil", "Cog", "Bolt"] },
                          "reordered once the dialog is gone: \(order())")
        }
        withExtendedLifetime(windowManager) {}
    }

    func testAReorderKeepsTheFocusedTileInSightAndFocused() throws {
        let clip = try TestClips.smpteBars(width: 320, height: 180, fps: 10, seconds: 60)
        let moonrakers = try threeMoonrakers()
        moonrakers[0].send(printing("a.gcode", progress: 0.9, printed: 2700))
        let printers = anvilBoltAndCog(on: moonrakers, camera: clip)
        try MainActor.assumeIsolated {
            // One column, 500 px high: one tile in sight at a time.
            let (_, window) = try startApp(with: printers, width: 450, height: 500)
            defer { gtk_window_destroy(gcast(window.window)) }
            let farm = window.farm
            @MainActor func order() -> [String] { farm.shownOrder.map { $0.camera!.name } }
            XCTAssertTrue(iterateMainContext(timeout: 15) { order() == ["Anvil", "Bolt", "Cog"] }, "printing first: \(order())")
            /// Whether all of the tile is inside the farm's view.
            @MainActor func inSight(_ tile: FarmTile) -> Bool {
                var bounds = graphene_rect_t()
                guard let view = gtk_widget_get_ancestor(tile.widget, gtk_scrolled_window_get_type()),
                      gtk_widget_compute_bounds(tile.widget, view, &bounds) != 0 else { return false }
                return bounds.origin.y >= 0 && bounds.origin.y + bounds.size.height <= Float(gtk_widget_get_height(view))
            }
            let anvil = try XCTUnwrap(farm.tile(id: printers[0].id))
            farm.focus(printers[0].id)
            XCTAssertTrue(iterateMainContext(timeout: 5) { inSight(anvil) && farm.focusedTile === anvil })

            // Bolt and Cog start printing with less time left: they go first, the focused Anvil far below the view.
            for moonraker in moonrakers[1...] {
                moonraker.send(printing("b.gcode", progress: 0.95, printed: 2900))
            }
            XCTAssertTrue(iterateMainContext(timeout: UInt32(FarmHold.seconds) + 10) { order() == ["Bolt", "Cog", "Anvil"] }, "\(order())")
            // Judged once a layout has put the tile in its new place: until then its bounds are
            // still those of its place before the reorder.
            @MainActor func placed(_ tile: FarmTile) -> Bool {
                var bounds = graphene_rect_t()
                guard let index = farm.shownOrder.firstIndex(where: { $0 === tile }), farm.grid.frames.indices.contains(index),
                      gtk_widget_compute_bounds(tile.widget, farm.grid.widget, &bounds) != 0 else { return false }
                return Int32(bounds.origin.y) == farm.grid.frames[index].y
            }
            XCTAssertTrue(iterateMainContext(timeout: 3) { placed(anvil) }, "a layout put the tile in its new place")
            XCTAssertTrue(iterateMainContext(timeout: 3) { placed(anvil) && inSight(anvil) }, "the focused tile scrolled into sight")
            XCTAssertTrue(farm.focusedTile === anvil, "and still focused")
            iterateFrames(10)  // drawn, for a screenshot
            ScreenCapture.saveIfAsked(as: "farm-reordered-focused-tile-in-sight")
        }
    }

    func testArrowKeysMoveBetweenTilesAndEnterOpensTheTab() throws {
        let windowManager = try WindowManager()
        let clip = try TestClips.smpteBars(width: 320, height: 180, fps: 10, seconds: 1)
        let printers = (1...5).map { Printer(name: "P\($0)", kind: .generic, cameras: [PrinterCamera(url: clip.path)]) }
        try MainActor.assumeIsolated {
            // 1100 px: three columns, so five tiles make a row of three and a row of two.
            let (app, window) = try startApp(with: printers, width: 1100, height: 900)
            defer { gtk_window_destroy(gcast(window.window)) }
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window.window))))
            XCTAssertTrue(iterateMainContext(timeout: 10) { gtk_widget_get_mapped(window.window) != 0 && window.farm.grid.columns == 3 },
                          "columns: \(window.farm.grid.columns)")
            func press(_ keys: String) { XCTAssertEqual(Keyboard.press(keys, window: xid), 0, "xdotool \(keys)") }
            @MainActor func focused() -> String? { window.farm.focusedTile?.camera!.name }

            window.farm.focus(printers[0].id)
            XCTAssertTrue(iterateMainContext(timeout: 3) { focused() == "P1" })
            press("Right")
            XCTAssertTrue(iterateMainContext(timeout: 3) { focused() == "P2" }, "Right: \(String(describing: focused()))")
            XCTAssertEqual(window.tabs.selected?.name, "P2", "the focused tile's printer is the selected one")
            press("Down")
            XCTAssertTrue(iterateMainContext(timeout: 3) { focused() == "P5" }, "Down: \(String(describing: focused()))")
            press("Down")
            XCTAssertTrue(iterateMainContext(timeout: 3) { focused() == "P5" }, "Down on the last row stays")
            press("Up")
            XCTAssertTrue(iterateMainContext(timeout: 3) { focused() == "P2" })
            press("Left")
            XCTAssertTrue(iterateMainContext(timeout: 3) { focused() == "P1" })
            press("End")
            XCTAssertTrue(iterateMainContext(timeout: 3) { focused() == "P5" })
            press("Home")
            XCTAssertTrue(iterateMainContext(timeout: 3) { focused() == "P1" })
            press("Right")
            XCTAssertTrue(iterateMainContext(timeout: 3) { focused() == "P2" })

            // Shift+F10 opens the focused tile's menu, Escape closes it.
            let second = try XCTUnwrap(window.farm.tile(id: printers[1].id))
            press("shift+F10")
            XCTAssertTrue(iterateMainContext(timeout: 3) { second.isMenuOpen }, "Shift+F10: the tile's menu")
            press("Escape")
            XCTAssertTrue(iterateMainContext(timeout: 3) { !second.isMenuOpen })
            XCTAssertTrue(iterateMainContext(timeout: 3) { focused() == "P2" }, "the focus goes back to the tile")
            iterateFrames(30)  // the popover's X window goes, and with it its keyboard grab

            // The window's actions act on the focused tile's printer: Ctrl+Shift+P pops P2 out.
            press("ctrl+shift+p")
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.miniWindows[printers[1].id] != nil }, "Ctrl+Shift+P on a tile")
            app.miniWindows[printers[1].id]?.close()
            XCTAssertTrue(iterateMainContext(timeout: 3) { focused() != nil || gtk_window_is_active(gcast(window.window)) != 0 })
            window.farm.focus(printers[1].id)

            press("Return")
            XCTAssertTrue(iterateMainContext(timeout: 3) { !window.isFarmShown }, "Enter opens the tab")
            XCTAssertEqual(window.tabs.selected?.name, "P2")
            XCTAssertEqual(gtk_widget_get_visible(window.tabs.bar), 1)
            XCTAssertFalse(app.library.config.farm.shown, "the tabs are remembered")

            press("ctrl+g")
            XCTAssertTrue(iterateMainContext(timeout: 3) { window.isFarmShown }, "Ctrl+G: the farm again")
            XCTAssertTrue(app.library.config.farm.shown)
            XCTAssertTrue(iterateMainContext(timeout: 3) { focused() == "P2" }, "back on the printer it left")
        }
        withExtendedLifetime(windowManager) {}
    }

    func testTheGridReflowsFromOneToFourColumnsWithoutRestartingAStream() throws {
        let windowManager = try WindowManager()
        let camera = try TestServer(script: "rtsp_server.py", arguments: ["--width", "320", "--height", "180", "--fps", "10", "--paths", "4"])
        addTeardownBlock { camera.stop() }
        let printers = (1...4).map { Printer(name: "R\($0)", kind: .generic, cameras: [PrinterCamera(url: "rtsp://127.0.0.1:\(camera.port)/streaming/live/1" + ($0 == 1 ? "" : "/\($0)"))]) }
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(with: printers, width: 1500, height: 900)
            defer { gtk_window_destroy(gcast(window.window)) }
            let farm = window.farm
            let tiles = farm.tiles
            XCTAssertTrue(iterateMainContext(timeout: 20) { tiles.allSatisfy { $0.surface!.shownFrame != nil } })
            let sizer = WindowSizer(window.window)
            XCTAssertTrue(iterateMainContext(timeout: 5) { farm.grid.columns == 2 }, "1500×900 px: two rows of two")
            let pictures = tiles.map(\.surface!.picture)
            // A hidden listener on each session hears every state from here on.
            var states: [String: [SessionState]] = [:]
            let listeners = tiles.map { tile in
                let name = tile.camera!.name
                return tile.surface!.session.attach(executor: MainLoopExecutor.main, visible: false,
                                                   onState: { state in MainActor.assumeIsolated { states[name, default: []].append(state) } },
                                                   onFrame: { _ in })
            }
            defer { listeners.forEach { $0.detach() } }
            XCTAssertEqual(camera.events(named: "client").count, 4)

            // 900 px high, four tiles fit in two rows from 700 px wide; 500 px high, in one row only,
            // so there the most columns that fit, as when they cannot all fit.
            for (width, height, columns) in [(Int32(500), Int32(900), 1), (700, 900, 2), (1040, 500, 3), (1500, 500, 4), (500, 900, 1), (1500, 500, 4)] {
                // The main window's own size leaves out its frame: wait for the X server's and the grid.
                gtk_window_set_default_size(gcast(window.window), width, height)
                XCTAssertTrue(iterateMainContext(timeout: 5) {
                    sizer.serverSize == WindowSizer.Size(width: width, height: height) && farm.grid.columns == columns
                }, "\(width)×\(height) px: \(sizer.serverSize), \(farm.grid.columns) columns")
                // In one column the last tiles are below the window: those alone wait (see the next test).
                @MainActor func inSight() -> [FarmTile] { tiles.filter { $0.surface!.isOnScreen } }
                XCTAssertTrue(iterateMainContext(timeout: 3) { columns == 1 ? inSight().count < 4 : inSight().count == 4 },
                              "\(inSight().count) tiles in sight at \(width) px")
                let seen = inSight()
                let before = seen.map { $0.surface!.shownFrame }
                XCTAssertTrue(iterateMainContext(timeout: 5) { zip(seen, before).allSatisfy { $0.surface!.shownFrame !== $1 } },
                              "every tile in sight still updating at \(width) px")
            }
            let frames = farm.grid.frames
            XCTAssertEqual(Set(frames.map(\.y)).count, 1, "four tiles in one row: \(frames)")
            XCTAssertEqual(tiles.map(\.surface!.picture), pictures, "no picture was made again")
            XCTAssertTrue(tiles.allSatisfy { $0.surface!.lifecycle.dismantles == 0 })
            XCTAssertEqual(camera.events(named: "client").count, 4, "no stream restarted")
            XCTAssertTrue(states.values.allSatisfy { $0.allSatisfy { $0 == .live } }, "only live states: \(states)")
        }
        withExtendedLifetime(windowManager) {}
    }

    /// Four printers in a 1600×1000 window fill it (issue 35): two rows of two big tiles, all in
    /// sight, spanning most of its width — not one row of four small ones over an empty window.
    /// Each tile tells its session its real size: a tile this large (more than a third of the
    /// 1280 px stream) is decoded with deblocking; in a window too low for two rows, the four small
    /// tiles of one row skip it again.
    func testFourPrintersInALargeWindowFillItAndEachTileIsDecodedForItsRealSize() throws {
        let windowManager = try WindowManager()
        let camera = try TestServer(script: "rtsp_server.py", arguments: ["--width", "1280", "--height", "720", "--fps", "5", "--paths", "4"])
        addTeardownBlock { camera.stop() }
        let printers = (1...4).map { Printer(name: "W\($0)", kind: .generic, cameras: [PrinterCamera(url: "rtsp://127.0.0.1:\(camera.port)/streaming/live/1" + ($0 == 1 ? "" : "/\($0)"))]) }
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(with: printers, width: 1600, height: 1000)
            defer { gtk_window_destroy(gcast(window.window)) }
            let farm = window.farm, tiles = farm.tiles
            // Each tile's session state, whether the farm and GTK have its picture in sight, and its session's frame counts.
            @MainActor func sessions() -> [String] {
                tiles.map { tile in
                    let (surface, stats) = (tile.surface!, tile.surface!.session.stats)
                    return "\(surface.session.state), on screen \(surface.isOnScreen), mapped \(gtk_widget_get_mapped(surface.widget) != 0), "
                        + "decoded \(stats.decodedFrames), converted \(stats.convertedFrames)"
                }
            }
            XCTAssertTrue(iterateMainContext(timeout: 20) { tiles.allSatisfy { $0.surface!.shownFrame != nil } },
                          "a picture on every tile: \(sessions()), "
                          + "\(camera.events(named: "client").count) camera connections")
            XCTAssertTrue(iterateMainContext(timeout: 5) { farm.grid.columns == 2 && farm.grid.frames.count == 4 },
                          "\(farm.grid.columns) columns: \(farm.grid.frames)")
            let frames = farm.grid.frames
            let width = gtk_widget_get_width(farm.grid.widget), seen = gtk_widget_get_height(farm.widget)
            let span = (frames.map { $0.x + $0.width }.max() ?? 0) - (frames.map(\.x).min() ?? 0)
            XCTAssertGreaterThan(span, width * 4 / 5, "most of the width: \(frames) in \(width) px")
            XCTAssertLessThanOrEqual(frames.map(\.maxY).max() ?? .max, seen, "every tile in sight: \(frames) in \(seen) px")
            XCTAssertGreaterThan(frames.map(\.maxY).max() ?? 0, seen * 4 / 5, "most of the height: \(frames) in \(seen) px")
            iterateFrames(10)  // drawn, for a screenshot
            ScreenCapture.saveIfAsked(as: "farm-four-printers-1600x1000")

            /// Each tile's picture width in pixels, and what its session converts to and whether it deblocks.
            @MainActor func decoding() -> [String] {
                tiles.map { tile in
                    let stats = tile.surface!.session.stats
                    let pixels = gtk_widget_get_width(tile.surface!.widget) * gtk_widget_get_scale_factor(tile.surface!.widget)
                    return "\(pixels) px: \(stats.outputSize.map { "\($0.width)" } ?? "-")\(stats.skipsLoopFilter ? " small" : "")"
                }
            }
            XCTAssertTrue(tiles.allSatisfy { gtk_widget_get_width($0.surface!.widget) == gtk_widget_get_width($0.widget) }, "pictures as wide as their tiles")
            XCTAssertTrue(iterateMainContext(timeout: 10) {
                tiles.allSatisfy { tile in
                    let pixels = Int(gtk_widget_get_width(tile.surface!.widget) * gtk_widget_get_scale_factor(tile.surface!.widget))
                    let output = tile.surface!.session.stats.outputSize?.width ?? 0
                    return output > 1280 / 3 && output <= pixels && pixels - output <= 2 && !tile.surface!.session.stats.skipsLoopFilter
                }
            }, "converted at the big tiles' size, deblocked: \(decoding())")

            let sizer = WindowSizer(window.window)
            gtk_window_set_default_size(gcast(window.window), 1600, 500)
            XCTAssertTrue(iterateMainContext(timeout: 5) { sizer.serverSize == WindowSizer.Size(width: 1600, height: 500) && farm.grid.columns == 4 },
                          "1600×500: \(sizer.serverSize), \(farm.grid.columns) columns")
            XCTAssertTrue(iterateMainContext(timeout: 10) {
                tiles.allSatisfy { $0.surface!.session.stats.skipsLoopFilter && ($0.surface!.session.stats.outputSize?.width ?? .max) <= 1280 / 3 }
            }, "four small tiles skip deblocking: \(decoding())")
        }
        withExtendedLifetime(windowManager) {}
    }

    func testPastEightTilesInSightTheRestDecodeKeyframesOnly() throws {
        let camera = try TestServer(script: "rtsp_server.py", arguments: ["--width", "320", "--height", "180", "--fps", "10", "--paths", "10"])
        addTeardownBlock { camera.stop() }
        let printers = (1...10).map { Printer(name: "K\($0)", kind: .generic, cameras: [PrinterCamera(url: "rtsp://127.0.0.1:\(camera.port)/streaming/live/1" + ($0 == 1 ? "" : "/\($0)"))]) }
        try MainActor.assumeIsolated {
            // 1900×1150: four columns of three rows (the biggest tiles that all fit), every tile in sight.
            let (_, window) = try startApp(with: printers, width: 1900, height: 1150)
            defer { gtk_window_destroy(gcast(window.window)) }
            let tiles = window.farm.shownOrder
            XCTAssertTrue(iterateMainContext(timeout: 20) { tiles.allSatisfy { $0.surface!.shownFrame != nil && $0.surface!.isOnScreen } })
            XCTAssertEqual(tiles.prefix(8).map(\.surface!.keyframesAreEnough), Array(repeating: false, count: 8), "the first eight play every frame")
            XCTAssertEqual(tiles.suffix(2).map(\.surface!.keyframesAreEnough), [true, true])
            XCTAssertTrue(iterateMainContext(timeout: 8) { tiles.suffix(2).allSatisfy { $0.surface!.session.stats.keyframesOnly } },
                          "the ninth and tenth decode keyframes only")
            XCTAssertTrue(tiles.prefix(8).allSatisfy { !$0.surface!.session.stats.keyframesOnly })
            let last = tiles[9], shown = last.surface!.shownFrame
            XCTAssertTrue(iterateMainContext(timeout: 3) { last.surface!.shownFrame !== shown }, "and still update at each keyframe")
        }
    }

    func testATileScrolledOutOfSightCostsWhatAHiddenTabCosts() throws {
        // The tiles share one session of this file, which must still play when the last tile comes
        // back in sight: a saved file plays once, so it lasts longer than the test.
        let clip = try TestClips.smpteBars(width: 320, height: 180, fps: 10, seconds: 30)
        let printers = (1...6).map { Printer(name: "S\($0)", kind: .generic, cameras: [PrinterCamera(url: clip.path)]) }
        try MainActor.assumeIsolated {
            // One column, 400 px high: the first tile is seen, the last is far below.
            let (_, window) = try startApp(with: printers, width: 450, height: 400)
            defer { gtk_window_destroy(gcast(window.window)) }
            let tiles = window.farm.shownOrder
            XCTAssertTrue(iterateMainContext(timeout: 10) { tiles[0].surface!.shownFrame != nil })
            XCTAssertTrue(iterateMainContext(timeout: 5) { tiles[0].surface!.isOnScreen && !tiles[5].surface!.isOnScreen },
                          "the first tile is in sight, the last out of it")
            let hidden = tiles[5]
            iterateFrames(5)  // a frame converted before the layout placed the tile may still be on its way
            let shown = hidden.surface!.shownFrame
            iterateFrames(30)
            XCTAssertTrue(hidden.surface!.shownFrame === shown, "nothing delivered to a tile out of sight")

            window.farm.focus(hidden.camera!.printerID)  // the scrolled window follows the focus
            XCTAssertTrue(iterateMainContext(timeout: 5) { hidden.surface!.isOnScreen && !tiles[0].surface!.isOnScreen })
            XCTAssertTrue(iterateMainContext(timeout: 5) { hidden.surface!.shownFrame !== shown && hidden.surface!.shownFrame != nil },
                          "in sight again, it updates")
        }
    }
}
