import CGtk
import CLayerwatch
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import TestSupport
import XCTest

/// The heaters and filament at a glance in the real app under Xvfb, against a mosquitto-backed
/// Bambu printer with an AMS and a Moonraker with Spoolman: the temperature line and the colour
/// swatches in the tab's strip and on the farm tile, read back from the rendered window, and the
/// trays in the popover.
final class StatusGlanceTests: XCTestCase {
    private let code = "16180339"
    /// Four trays of clearly different colours, tray 2 (green) feeding, and a white external spool.
    private let trays: [(type: String, color: String, rgb: (Int, Int, Int))] = [
        ("PLA", "FF0000FF", (255, 0, 0)), ("PETG", "00FF00FF", (0, 255, 0)),
        ("ABS", "0000FFFF", (0, 0, 255)), ("TPU", "FFFF00FF", (255, 255, 0)),
    ]

    override func setUp() {
        AppTestEnvironment.prepare()
    }

    private func report() -> [String: Any] {
        let ams: [[String: Any]] = [["id": "0", "humidity": "4", "temp": "24.0", "tray": trays.enumerated().map { index, tray in
            ["id": "\(index)", "tray_type": tray.type, "tray_sub_brands": "\(tray.type) Basic", "tray_color": tray.color, "remain": 20 * (index + 1)]
        }]]
        return ["gcode_state": "RUNNING", "subtask_name": "Benchy", "mc_percent": 42, "mc_remaining_time": 72,
                "nozzle_temper": 219.6, "nozzle_target_temper": 220, "bed_temper": 55.2, "bed_target_temper": 55, "chamber_temper": 31,
                "ams": ["ams": ams, "tray_now": "1"], "vt_tray": ["id": "254", "tray_type": "PLA", "tray_color": "FFFFFFFF", "remain": 0]]
    }

    typealias RGB = (r: Int, g: Int, b: Int)

    /// The rendered colour at the centre of each swatch `glance` shows, 8 px right of it (on the
    /// active ring, or beside an inactive dot) and 10 px right (the background between swatches), in
    /// `window`'s rendering.
    @MainActor
    private func readBack(_ glance: StatusGlance, in window: UnsafeMutablePointer<GtkWidget>) -> [(centre: RGB, ring: RGB, beside: RGB)]? {
        // The window's content (its CSD margin is no part of the rendering's coordinates).
        guard let content = gtk_window_get_child(gcast(window)), let image = RenderedImage(of: content) else { return nil }
        return glance.filament.shown.compactMap { _, swatch in
            var centre = graphene_point_t(x: Float(gtk_widget_get_width(swatch)) / 2, y: Float(gtk_widget_get_height(swatch)) / 2)
            var point = graphene_point_t()
            guard gtk_widget_compute_point(swatch, content, &centre, &point) != 0 else { return nil }
            let (x, y) = (Int(point.x), Int(point.y))
            guard x + 10 < image.width, y < image.height else { return nil }
            return (image.rgb(x: x, y: y), image.rgb(x: x + 8, y: y), image.rgb(x: x + 10, y: y))
        }
    }

    private func close(_ a: (r: Int, g: Int, b: Int), _ b: (Int, Int, Int)) -> Bool {
        abs(a.r - b.0) <= 12 && abs(a.g - b.1) <= 12 && abs(a.b - b.2) <= 12
    }

    @MainActor
    private func assertSwatchesOnScreen(_ glance: StatusGlance, in window: UnsafeMutablePointer<GtkWidget>, _ place: String) {
        let expected = trays.map(\.rgb) + [(255, 255, 255)]
        var seen: [(centre: RGB, ring: RGB, beside: RGB)] = []
        XCTAssertTrue(iterateMainContext(timeout: 5) {
            seen = readBack(glance, in: window) ?? []
            return seen.count == expected.count && zip(seen, expected).allSatisfy { close($0.centre, $1) }
        }, "\(place): the swatches on screen are \(seen.map(\.centre)), expected \(expected)")
        guard seen.count == expected.count else { return }
        // The feeding tray (the second) is ringed: just outside its dot the ring's colour, not the
        // background; just outside the others' dots, the background.
        let contrast = seen.map { abs(($0.ring.r + $0.ring.g + $0.ring.b) - ($0.beside.r + $0.beside.g + $0.beside.b)) }
        XCTAssertEqual(contrast.map { $0 > 150 }, [false, true, false, false, false],
                       "\(place): ring \(seen.map(\.ring)) against the background \(seen.map(\.beside))")
    }

    /// Sixteen AMS units of four trays are some 80 rows: the popover scrolls them and stays on the
    /// monitor (run under a 1000 px high screen, `xvfb-run -s "-screen 0 1280x1000x24"`, it was
    /// 2 600 px tall and ran off it). LAYERWATCH_SHOTS=DIR saves the screen with it open.
    func testManyUnitsScrollInAPopoverThatFitsTheMonitor() throws {
        let windowManager = try WindowManager()
        defer { withExtendedLifetime(windowManager) {} }
        let (server, directory) = try fakeX1C(named: "Farm of AMS", windowHeight: 700)
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let glance = try XCTUnwrap(window.tabs.selected?.status.glance)
            let units = (0..<16).map { unit in
                ["id": "\(unit)", "humidity": "3", "tray": trays.enumerated().map { index, tray in
                    ["id": "\(index)", "tray_type": tray.type, "tray_sub_brands": "\(tray.type) Basic", "tray_color": tray.color, "remain": 50]
                }] as [String: Any]
            }
            server.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Benchy", "ams": ["ams": units, "tray_now": "61"]]])
            let popover = glance.filament.popover
            XCTAssertTrue(iterateMainContext(timeout: 15) { popover.rows.count == 64 }, "\(popover.rows.count) rows")
            let button = glance.filament.button
            XCTAssertTrue(iterateMainContext(timeout: 5) { gtk_widget_get_mapped(button) != 0 })
            _ = iterateMainContext(timeout: 1) { false }
            XCTAssertEqual(Pointer(widget: button).at(Double(gtk_widget_get_width(button)) / 2, Double(gtk_widget_get_height(button)) / 2,
                                                      then: ["click", "1"]), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { gtk_widget_get_mapped(popover.widget) != 0 }, "the details open")
            _ = iterateMainContext(timeout: 1) { false }
            let surface = try XCTUnwrap(gtk_native_get_surface(gcast(popover.widget)))
            let monitor = try XCTUnwrap(gdk_display_get_monitor_at_surface(gdk_surface_get_display(surface), surface))
            var area = GdkRectangle()
            gdk_monitor_get_geometry(monitor, &area)
            var (x, y): (Int32, Int32) = (0, 0)
            XCTAssertTrue(Bool(gboolean: lw_x11_get_position(surface, &x, &y)))
            let height = gdk_surface_get_height(surface)
            XCTAssertGreaterThanOrEqual(y, area.y, "the popover's top on the monitor")
            XCTAssertLessThanOrEqual(y + height, area.y + area.height, "the popover (\(height) px at \(y)) ends on the \(area.height) px monitor")
            ScreenCapture.saveIfAsked(as: "ams-popover")
            gtk_popover_popdown(gcast(popover.widget))
        }
    }

    /// A fake X1C (mosquitto-backed) named `name`, and a config directory holding it alone with a
    /// window 1000 px wide and `windowHeight` high.
    private func fakeX1C(named name: String, windowHeight: Int) throws -> (server: TestServer, directory: URL) {
        let server = try TestServer(script: "bambu_mqtt_printer.py", arguments: ["--code", code, "--partial"])
        addTeardownBlock { server.stop() }
        let serial = try XCTUnwrap(server.waitFor("ready")?.string("serial"))
        let printer = Printer(name: name, kind: .bambuRTSPS(.x1c), host: "127.0.0.1", apiPort: server.port,
                              serial: serial, accessCode: code)
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(
            AppConfig(printers: [printer], window: .init(width: 1000, height: windowHeight, maximized: false)))
        return (server, directory)
    }

    func testTheTabAndTileShowTemperaturesAndTheTraysColoursOnScreen() throws {
        let windowManager = try WindowManager()
        defer { withExtendedLifetime(windowManager) {} }
        let (server, directory) = try fakeX1C(named: "X1C AMS", windowHeight: 800)
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.selected)
            let glance = try XCTUnwrap(page.status.glance)
            XCTAssertTrue(iterateMainContext(timeout: 15) { glance.temperatures.text != nil }, "the idle printer's heaters")
            XCTAssertFalse(glance.filament.isShown, "no AMS reported yet: no swatches")
            XCTAssertEqual(glance.temperatures.text, "Nozzle 24 °C · Bed 24 °C · Chamber 25 °C", "heaters off: the reading alone")

            server.send(["cmd": "set", "print": report()])
            XCTAssertTrue(iterateMainContext(timeout: 10) { glance.filament.shown.count == 5 }, "four trays and the external spool")
            XCTAssertEqual(glance.temperatures.text, "Nozzle 220/220 °C · Bed 55/55 °C · Chamber 31 °C")
            XCTAssertTrue(page.status.strip.isShown)
            assertSwatchesOnScreen(glance, in: window.window, "the tab's strip")

            let popover = glance.filament.popover
            XCTAssertEqual(popover.rows.map(\.place), ["AMS A1", "AMS A2", "AMS A3", "AMS A4", "External spool"])
            XCTAssertEqual(popover.rows.map(\.material), ["PLA · PLA Basic", "PETG · PETG Basic", "ABS · ABS Basic", "TPU · TPU Basic", "PLA"])
            XCTAssertEqual(popover.rows.map(\.remaining), ["20 % left", "40 % left", "60 % left", "80 % left", nil])
            XCTAssertEqual(popover.rows.map(\.inUse), [false, true, false, false, false])
            XCTAssertEqual(popover.filament.units.first?.humidityLevel, 2)
            let button = glance.filament.button
            XCTAssertEqual(Pointer(widget: button).at(Double(gtk_widget_get_width(button)) / 2, Double(gtk_widget_get_height(button)) / 2,
                                                      then: ["click", "1"]), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { gtk_widget_get_mapped(popover.widget) != 0 }, "a click on the swatches opens the details")
            gtk_popover_popdown(gcast(popover.widget))

            // The external spool feeding: the ring moves there.
            server.send(["cmd": "set", "print": ["ams": ["tray_now": "254"]]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { glance.filament.shown.last?.slot.isActive == true })
            XCTAssertEqual(popover.rows.map(\.inUse), [false, false, false, false, true])
            server.send(["cmd": "set", "print": ["ams": ["tray_now": "1"]]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { glance.filament.shown[1].slot.isActive })

            // A printer reporting 300 units of 30 trays (all tray 4): 16 units of one tray are kept with
            // the external spool, 8 swatches shown (the feeding tray, unit 9's, among them), "+9" for the rest.
            let tray: [String: Any] = ["id": "3", "tray_type": "PLA", "tray_color": "FF0000FF", "remain": 50]
            let flood = (0..<300).map { unit in ["id": "\(unit)", "humidity": "3", "tray": (0..<30).map { _ in tray }] }
            server.send(["cmd": "set", "print": ["ams": ["ams": flood, "tray_now": "39"]]])
            XCTAssertTrue(iterateMainContext(timeout: 15) { glance.filament.moreText == "+9" },
                          "\(String(describing: glance.filament.moreText)), \(glance.filament.shown.count) shown")
            XCTAssertEqual(glance.filament.shown.count, 8)
            XCTAssertEqual(glance.filament.shown.last?.slot.place, .tray(unit: 9, tray: 3), "the feeding tray keeps its swatch")
            XCTAssertEqual(popover.rows.count, 17)
            server.send(["cmd": "set", "print": report()])
            XCTAssertTrue(iterateMainContext(timeout: 10) { glance.filament.shown.count == 5 && glance.filament.moreText == nil })

            // The farm tile: the same line and swatches under the printer's name.
            window.setFarmShown(true)
            let tile = try XCTUnwrap(window.farm.tiles.first)
            let tileGlance = try XCTUnwrap(tile.status.glance)
            XCTAssertTrue(iterateMainContext(timeout: 5) { tileGlance.filament.shown.count == 5 && gtk_widget_get_mapped(tileGlance.widget) != 0 })
            XCTAssertEqual(tileGlance.temperatures.text, "Nozzle 220/220 °C · Bed 55/55 °C · Chamber 31 °C")
            assertSwatchesOnScreen(tileGlance, in: window.window, "the farm tile")
        }
    }

    /// A tray colour that is not `RRGGBBAA` (garbage, too long, missing, CSS's `#`) draws
    /// the faint dot of an unknown colour, the same for each; a good one beside them, GDK's reading.
    func testHostileTrayColoursDrawTheUnknownColoursDot() throws {
        let windowManager = try WindowManager()
        defer { withExtendedLifetime(windowManager) {} }
        let (server, directory) = try fakeX1C(named: "X1C odd colours", windowHeight: 800)
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let glance = try XCTUnwrap(window.tabs.selected?.status.glance)
            let colours: [String?] = ["ZZZZ00FF", "FF0000FF00", nil, "#00FF00FF"]
            let trays = colours.enumerated().map { index, colour in
                var tray: [String: Any] = ["id": "\(index)", "tray_type": "PLA", "remain": 50]
                tray["tray_color"] = colour
                return tray
            }
            server.send(["cmd": "set", "print": ["ams": ["ams": [["id": "0", "humidity": "3", "tray": trays]], "tray_now": "255"],
                                                 "vt_tray": ["id": "254", "tray_type": "PLA", "tray_color": "0000FF80"]]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { glance.filament.shown.count == 5 }, "four trays and the external spool")
            XCTAssertEqual(glance.filament.shown.map(\.slot.color), [nil, nil, nil, nil, "0000FF80"])
            var seen: [RGB] = []
            XCTAssertTrue(iterateMainContext(timeout: 5) {
                seen = readBack(glance, in: window.window)?.map(\.centre) ?? []
                return seen.count == 5 && seen.dropFirst().prefix(3).allSatisfy { close($0, (seen[0].r, seen[0].g, seen[0].b)) }
                    && seen[4].b - seen[4].r > 60
            }, "the unknown colours drawn alike, the half-clear blue bluish: \(seen)")
            let faint = try XCTUnwrap(seen.first)
            XCTAssertLessThan(abs(faint.r - faint.g) + abs(faint.g - faint.b), 12, "the unknown colour's dot is grey, not red or green: \(faint)")
            ScreenCapture.saveIfAsked(as: "hostile-tray-colours")
        }
        let half = try XCTUnwrap(FilamentSwatch.fill("0000FF80"))
        XCTAssertEqual([half.red, half.green, half.blue], [0, 0, 1])
        XCTAssertEqual(half.alpha, 128 / 255, accuracy: 0.01)
        for hostile in ["", "FFF", "red", "ZZZZZZZZ", "FF0000FF00", "rgb(1,2,3)", "ÄÄÄÄ", String(repeating: "F", count: 100_000)] {
            XCTAssertNil(FilamentSwatch.fill(hostile), String(hostile.prefix(20)))
        }
    }

    func testAKlipperHostsSpoolmanSpoolIsOneSwatch() throws {
        let moonraker = try TestServer(script: "moonraker_server.py", arguments: ["--spoolman"])
        addTeardownBlock { moonraker.stop() }
        let camera = try TestServer(script: "mjpeg_server.py")
        addTeardownBlock { camera.stop() }
        let printer = Printer(name: "Voron 2.4", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port,
                              cameras: [PrinterCamera(url: "http://127.0.0.1:\(camera.port)/?action=stream")])
        try MainActor.assumeIsolated {
            let directory = try makeTemporaryDirectory()
            try ConfigStore(directory: directory, secrets: nil).save(
                AppConfig(printers: [printer], window: .init(width: 1000, height: 800, maximized: false)))
            let (_, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            let glance = try XCTUnwrap(window.tabs.selected?.status.glance)
            XCTAssertTrue(iterateMainContext(timeout: 15) { glance.filament.shown.count == 1 }, "the active spool")
            XCTAssertEqual(glance.temperatures.text, "Nozzle 22 °C · Bed 22 °C", "Klipper's extruder and bed, no chamber")
            XCTAssertEqual(glance.filament.popover.rows.map(\.place), ["Spoolman spool 2"])
            XCTAssertEqual(glance.filament.popover.rows.first?.material, "PLA · Reactor Red")
            XCTAssertEqual(glance.filament.popover.rows.first?.remaining, "95 % left (950 g)")
            var seen: [(centre: RGB, ring: RGB, beside: RGB)] = []
            XCTAssertTrue(iterateMainContext(timeout: 5) {
                seen = readBack(glance, in: window.window) ?? []
                return seen.count == 1 && close(seen[0].centre, (0xBD, 0x0B, 0x0B))
            }, "Spoolman's BD0B0B on screen: \(seen.map(\.centre))")
        }
    }
}
