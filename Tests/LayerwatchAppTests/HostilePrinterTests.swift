import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// The whole app against printers that report what no printer should: Moonraker, OctoPrint and a
/// Bambu printer (real mosquitto) sending numbers past every range, random numbers in every field,
/// thousands of reports a second, a state flapping and HMS codes churning. The app keeps running and
/// answering, each strip shows what it can, the desktop gets a few notifications at most while a
/// real pause is still told, and the CLI stays up beside it.
final class HostilePrinterTests: XCTestCase {
    private let code = "27182818"
    private let octoprintKey = "OCTOKEY123456"

    override func setUp() {
        AppTestEnvironment.prepare()
    }

    /// A Klipper and an OctoPrint printer on the test servers, each with the demo clip as its camera.
    private func httpPrinters(moonraker: TestServer, octoprint: TestServer) throws -> [Printer] {
        let clip = try TestClips.smpteBars(seconds: 2).path
        return [Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: moonraker.port, cameras: [PrinterCamera(url: clip)]),
                Printer(name: "Prusa", kind: .octoprint, host: "127.0.0.1", apiPort: octoprint.port, accessCode: octoprintKey, cameras: [PrinterCamera(url: clip)])]
    }

    func testNumbersPastEveryRangeLeaveTheAppRunningAndTheStripsShowingWhatTheyCan() throws {
        let moonraker = try TestServer(script: "moonraker_server.py")
        let octoprint = try TestServer(script: "octoprint_server.py", arguments: ["--api-key", octoprintKey])
        addTeardownBlock { moonraker.stop(); octoprint.stop() }
        moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "Benchy.gcode", "print_duration": 1e308],
                                                 "display_status": ["progress": 0.5], "extruder": ["temperature": 1e308, "target": 215],
                                                 "heater_bed": ["temperature": -1e300, "target": 60]]])
        octoprint.send(["cmd": "set", "state": "Printing", "job": ["file": ["name": "Cube.gcode", "display": "Cube.gcode"]],
                        "progress": ["completion": 25, "printTimeLeft": 1e300], "temperature": ["tool0": ["actual": 1e308, "target": 210]]])
        let (mqtt, bambu) = try fakeP1S(code: code, on: randomLoopbackAddress())
        mqtt.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Gear", "mc_percent": 40, "mc_remaining_time": 1e308,
                                           "nozzle_temper": 1e308, "layer_num": 1e14, "total_layer_num": 300]])
        for server in [moonraker, octoprint, mqtt] { XCTAssertNotNil(server.waitFor("done")) }
        let printers = try httpPrinters(moonraker: moonraker, octoprint: octoprint) + [bambu]
        let (config, state) = try directories(with: printers)
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(config: config, state: state)
            defer { gtk_window_destroy(gcast(window.window)) }
            let strips = try printers.map { try XCTUnwrap(window.tabs.page(id: $0.id)).status.strip }
            XCTAssertTrue(iterateMainContext(timeout: 20) { strips.allSatisfy { $0.stateText == "Printing" } },
                          "\(strips.map(\.stateText))")
            XCTAssertEqual(strips.map(\.jobText), ["Benchy.gcode", "Cube.gcode", "Gear"])
            XCTAssertEqual(strips.map(\.percentText), ["50 %", "25 %", "40 %"])
            XCTAssertEqual(strips.map(\.timeText), [nil, nil, nil], "no time left is shown for one past ten years")
            XCTAssertNil(strips[2].layersText, "layer 1e14 is unknown")
        }
        // The command line reads the same reports and exits cleanly.
        for (target, extra) in [("moonraker://127.0.0.1:\(moonraker.port)", [String]()),
                                ("octoprint://127.0.0.1:\(octoprint.port)", ["--code-from-stdin"])] {
            let run = try CommandRun.product("layerwatch", ["status", target, "--json"] + extra, input: octoprintKey + "\n")
            XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], run.stdout)
            XCTAssertEqual(object["state"] as? String, "printing")
            XCTAssertNil(object["timeLeftSeconds"])
            XCTAssertFalse(run.stdout.contains(octoprintKey))
        }
    }

    /// Random numbers, finite and not, in every numeric field of each protocol's reports for a few
    /// seconds (hundreds a second from the Bambu printer): the app and `layerwatch status --watch`
    /// stay up, and a sane report afterwards shows as it should.
    func testFuzzedReportsFromEveryProtocolKeepTheAppAndTheCommandLineUp() throws {
        let moonraker = try TestServer(script: "moonraker_server.py")
        let octoprint = try TestServer(script: "octoprint_server.py", arguments: ["--api-key", octoprintKey])
        addTeardownBlock { moonraker.stop(); octoprint.stop() }
        let (mqtt, bambu) = try fakeP1S(code: code, on: randomLoopbackAddress())
        let printers = try httpPrinters(moonraker: moonraker, octoprint: octoprint) + [bambu]
        let (config, state) = try directories(with: printers)
        let watchers = try [("moonraker://127.0.0.1:\(moonraker.port)", ""),
                            ("octoprint://127.0.0.1:\(octoprint.port)", octoprintKey),
                            ("bambu://\(bambu.host):\(mqtt.port)?serial=\(try XCTUnwrap(bambu.serial))", code)]
            .map { try StatusWatcher(target: $0.0, code: $0.1) }
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(config: config, state: state)
            defer { gtk_window_destroy(gcast(window.window)) }
            let strips = try printers.map { try XCTUnwrap(window.tabs.page(id: $0.id)).status.strip }
            XCTAssertTrue(iterateMainContext(timeout: 20) { strips.allSatisfy { $0.stateText == "Idle" } }, "\(strips.map(\.stateText))")
            let fuzz = HostileNumbers()
            let reports: [[String: Any]] = (0..<200).map { _ in
                ["gcode_state": "RUNNING", "mc_percent": fuzz.any(), "mc_remaining_time": fuzz.any(), "layer_num": fuzz.any(),
                 "total_layer_num": fuzz.any(), "nozzle_temper": fuzz.any(), "nozzle_target_temper": fuzz.any(),
                 "bed_temper": fuzz.any(), "bed_target_temper": fuzz.any(), "chamber_temper": fuzz.any(), "print_error": fuzz.any(),
                 "hms": [["attr": fuzz.any(), "code": fuzz.any()]],
                 "device": ["extruder": ["info": [["temp": fuzz.any()]]], "bed": ["info": ["temp": fuzz.any()]]]]
            }
            mqtt.send(["cmd": "flood", "rate": 400, "seconds": 8, "reports": reports])
            let end = Date().addingTimeInterval(8)
            while Date() < end {
                moonraker.send(["cmd": "set", "status": [
                    "print_stats": ["state": "printing", "filename": "a.gcode", "print_duration": fuzz.any(),
                                    "info": ["current_layer": fuzz.any(), "total_layer": fuzz.any()]],
                    "display_status": ["progress": fuzz.any()], "virtual_sdcard": ["progress": fuzz.any()],
                    "extruder": ["temperature": fuzz.any(), "target": fuzz.any()], "heater_bed": ["temperature": fuzz.any(), "target": fuzz.any()]]])
                octoprint.send(["cmd": "set", "state": "Printing", "progress": ["completion": fuzz.any(), "printTimeLeft": fuzz.any()],
                                "temperature": ["tool0": ["actual": fuzz.any(), "target": fuzz.any()], "bed": ["actual": fuzz.any(), "target": fuzz.any()]]])
                _ = iterateMainContext(timeout: 1) { false }
            }
            XCTAssertNotNil(mqtt.waitFor("done", timeout: 20))
            // Sane reports again: every strip follows, so the app came through whole and live.
            moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "paused", "print_duration": 60],
                                                     "display_status": ["progress": 0.5]]])
            octoprint.send(["cmd": "set", "state": "Paused", "progress": ["completion": 30, "printTimeLeft": 600]])
            mqtt.send(["cmd": "set", "print": ["gcode_state": "PAUSE", "mc_percent": 70, "mc_remaining_time": 10, "layer_num": 5]])
            XCTAssertTrue(iterateMainContext(timeout: 15) { strips.allSatisfy { $0.stateText == "Paused" } }, "\(strips.map(\.stateText))")
            XCTAssertEqual(strips.map(\.percentText), ["50 %", "30 %", "70 %"])
        }
        for watcher in watchers {
            let (interrupted, lines) = watcher.stop()
            XCTAssertTrue(interrupted, "\(watcher.target) ended by itself before Ctrl+C: \(lines.suffix(3))")
            XCTAssertFalse(lines.isEmpty, watcher.target)
            XCTAssertTrue(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil }, "\(lines.prefix(3))")
        }
    }

    /// 5 000 reports a second flapping PAUSE/RUNNING, then fresh HMS codes in every report: the main
    /// loop keeps answering, the strip shows the last report at once when the flood ends (nothing
    /// queued behind it), and the desktop gets a notification or two — while a real pause after it
    /// is told within seconds.
    func testAFloodNeitherFreezesTheWindowNorFloodsTheDesktop() throws {
        let notifications = try notificationServer()
        let (mqtt, printer) = try fakeP1S(code: code, on: randomLoopbackAddress())
        let (config, state) = try directories(with: [printer])
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(config: config, state: state)
            defer { gtk_window_destroy(gcast(window.window)) }
            let strip = try XCTUnwrap(window.tabs.page(id: printer.id)).status.strip
            mqtt.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Flood", "mc_percent": 5]])
            XCTAssertTrue(iterateMainContext(timeout: 20) { strip.stateText == "Printing" })
            _ = iterateMainContext(timeout: UInt32(NotificationGate.settleTime) + 1) { false }

            // The main loop's pulse: a 20 ms timer and the gaps between its ticks, quiet and in the flood.
            var last = Date(), gaps: [TimeInterval] = []
            let pulse = RepeatingTimer(milliseconds: 20) {
                gaps.append(Date().timeIntervalSince(last))
                last = Date()
            }
            _ = iterateMainContext(timeout: 2) { false }
            let quiet = gaps.sorted()
            gaps = []
            let mainBefore = Self.mainThreadCPU(), processBefore = Self.processCPU()
            mqtt.send(["cmd": "flood", "rate": 5000, "seconds": 6,
                       "reports": [["gcode_state": "PAUSE", "mc_percent": 6], ["gcode_state": "RUNNING", "mc_percent": 7]]])
            XCTAssertTrue(iterateMainContext(timeout: 30) { mqtt.events(named: "done").count >= 2 })
            let flood = try XCTUnwrap(mqtt.events(named: "done").last)
            let floodEnded = Date()
            XCTAssertTrue(iterateMainContext(timeout: 5) { strip.percentText == "7 %" && strip.stateText == "Printing" })
            let caughtUp = Date().timeIntervalSince(floodEnded)
            pulse.cancel()
            let mainCPU = Self.mainThreadCPU() - mainBefore, processCPU = Self.processCPU() - processBefore
            let flooded = gaps.sorted()
            let longest = flooded.last ?? 0
            func ms(_ sorted: [TimeInterval], _ quantile: Double) -> Int {
                sorted.isEmpty ? 0 : Int(sorted[min(sorted.count - 1, Int(Double(sorted.count) * quantile))] * 1000)
            }
            print("flood: \(flood.fields["published"] ?? "?") reports in \(flood.fields["seconds"] ?? "?") s; 20 ms ticks of the main loop, quiet: p50 \(ms(quiet, 0.5)) ms, p99 \(ms(quiet, 0.99)) ms, max \(ms(quiet, 1)) ms; in the flood: p50 \(ms(flooded, 0.5)) ms, p99 \(ms(flooded, 0.99)) ms, max \(ms(flooded, 1)) ms; CPU in the flood: main thread \(String(format: "%.1f", mainCPU)) s, whole app \(String(format: "%.1f", processCPU)) s; strip caught up \(Int(caughtUp * 1000)) ms after the flood")
            XCTAssertGreaterThan(flood.fields["published"] as? Int ?? 0, 20_000)
            XCTAssertLessThan(caughtUp, 2, "nothing queued behind the flood (it took 90 s before reports were coalesced)")
            XCTAssertLessThan(longest, 1, "the main loop kept answering")

            mqtt.send(["cmd": "flood", "rate": 50, "seconds": 6, "fresh_hms": true, "reports": [["gcode_state": "RUNNING"]]])
            XCTAssertTrue(iterateMainContext(timeout: 30) { mqtt.events(named: "done").count >= 3 })
            mqtt.send(["cmd": "set", "print": ["gcode_state": "PAUSE", "hms": []]])
            let pausedAt = Date()
            XCTAssertTrue(iterateMainContext(timeout: 15) {
                notifications.events(named: "notification").contains { $0.string("title") == "Bench P1S: print paused" }
            }, "\(notifications.events(named: "notification").map { $0.string("title") })")
            XCTAssertLessThan(Date().timeIntervalSince(pausedAt), NotificationGate.settleTime + 4)
            let all = notifications.events(named: "notification")
            XCTAssertLessThanOrEqual(all.count, 3, "flapping, 300 fresh alerts and a pause: \(all.map { $0.string("title") })")
            XCTAssertEqual(all.filter { $0.string("title") == "Bench P1S: printer alert" }.count, 1)
            XCTAssertFalse(iterateMainContext(timeout: 3) { notifications.events(named: "notification").count > all.count })
        }
    }

    /// A per-layer timelapse of a printer reporting 200 new layers a second: a picture every few
    /// seconds at most, never one a report.
    func testALayerFloodTakesAPictureEveryFewSecondsAtMost() throws {
        let host = randomLoopbackAddress()
        let camera = try TestServer(script: "bambu_jpeg_server.py",
                                    arguments: ["--bind", host, "--port", "6000", "--password", code, "--width", "320", "--height", "180", "--fps", "4"])
        addTeardownBlock { camera.stop() }
        var (mqtt, printer) = try fakeP1S(code: code, on: host)
        printer.timelapse = .perLayer
        let (config, state) = try directories(with: [printer])
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(config: config, state: state)
            defer { gtk_window_destroy(gcast(window.window)) }
            app.timelapses!.videoFolder = try makeTemporaryDirectory()
            let page = try XCTUnwrap(window.tabs.page(id: printer.id))
            XCTAssertTrue(iterateMainContext(timeout: 20) { page.surface!.shownFrame != nil && page.status.strip.stateText == "Idle" })
            mqtt.send(["cmd": "flood", "rate": 200, "seconds": 6,
                       "reports": (1...1200).map { ["gcode_state": "RUNNING", "subtask_name": "Layers", "layer_num": $0, "total_layer_num": 1200] }])
            XCTAssertTrue(iterateMainContext(timeout: 30) { mqtt.events(named: "done").count >= 1 && mqtt.events(named: "done").last?.fields["published"] != nil })
            _ = iterateMainContext(timeout: 2) { false }
            app.timelapses!.flush()
            let pictures = app.timelapses!.pictureCount(of: printer.id)
            let limit = Int(6 / TimelapseTaker.minimumGap) + 2
            XCTAssertGreaterThanOrEqual(pictures, 1)
            XCTAssertLessThanOrEqual(pictures, limit, "1 200 layers in 6 s: \(pictures) pictures")
        }
    }

    /// A name and a job holding markup: GNOME Shell's interface (the one GLib takes where it runs)
    /// reads plain text, so the body arrives as written; `NotificationMarkupTests` covers servers
    /// that read markup.
    func testMarkupInNamesReachesAPlainTextServerAsWritten() throws {
        let notifications = try notificationServer()
        let job = "<a href=\"http://169.254.169.254/\">Gear</a><img src=\"x\">"
        let (mqtt, printer) = try fakeP1S(code: code, on: randomLoopbackAddress(), name: "<b>Bench</b> & co")
        let (config, state) = try directories(with: [printer])
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(config: config, state: state)
            defer { gtk_window_destroy(gcast(window.window)) }
            let strip = try XCTUnwrap(window.tabs.page(id: printer.id)).status.strip
            mqtt.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": job]])
            XCTAssertTrue(iterateMainContext(timeout: 20) { strip.stateText == "Printing" && strip.jobText == job })
            _ = iterateMainContext(timeout: UInt32(NotificationGate.settleTime) + 2) { false }
            mqtt.send(["cmd": "set", "print": ["gcode_state": "FINISH", "mc_percent": 100]])
            let ours = { notifications.events(named: "notification").filter { $0.string("title")?.hasPrefix("<b>Bench</b>") == true } }
            XCTAssertTrue(iterateMainContext(timeout: 15) { !ours().isEmpty })
            let finished = try XCTUnwrap(ours().last)
            XCTAssertEqual(finished.string("body"), job)
            XCTAssertEqual(finished.string("title"), "<b>Bench</b> & co: print finished")
        }
    }

    /// A right-to-left override (U+202E) or isolate in a job's or a tray's name would reverse the
    /// text after it in our labels and sentences: it is taken out where the report is read, so the
    /// strip, the filament popover and the notification show the name in its own order and nothing
    /// after it moves. LAYERWATCH_SHOTS=DIR saves the window with the strip.
    func testBidiOverridesInPrinterTextDoNotReorderOurs() throws {
        let notifications = try notificationServer()
        let (mqtt, printer) = try fakeP1S(code: code, on: randomLoopbackAddress(), name: "Bidi")
        let (config, state) = try directories(with: [printer])
        try MainActor.assumeIsolated {
            let (_, window) = try startApp(config: config, state: state)
            defer { gtk_window_destroy(gcast(window.window)) }
            let page = try XCTUnwrap(window.tabs.page(id: printer.id))
            let strip = page.status.strip
            let tray: [String: Any] = ["id": "0", "tray_type": "PLA", "tray_sub_brands": "\u{2067}Matte\u{202E} Basic", "tray_color": "FF0000FF", "remain": 80]
            mqtt.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "\u{202E}Gear v2\u{202A}", "mc_percent": 42,
                                               "ams": ["ams": [["id": "0", "humidity": "3", "tray": [tray]]], "tray_now": "0"]]])
            XCTAssertTrue(iterateMainContext(timeout: 20) { strip.stateText == "Printing" && strip.jobText != nil })
            XCTAssertEqual(strip.jobText, "Gear v2")
            XCTAssertEqual(strip.percentText, "42 %")
            let popover = try XCTUnwrap(page.status.glance?.filament.popover)
            XCTAssertTrue(iterateMainContext(timeout: 10) { !popover.rows.isEmpty })
            XCTAssertEqual(popover.rows.first?.material, "PLA · Matte Basic")
            _ = iterateMainContext(timeout: 1) { false }
            ScreenCapture.saveIfAsked(as: "bidi-job")
            _ = iterateMainContext(timeout: UInt32(NotificationGate.settleTime) + 2) { false }
            mqtt.send(["cmd": "set", "print": ["gcode_state": "FINISH", "mc_percent": 100]])
            let ours = { notifications.events(named: "notification").filter { $0.string("title")?.hasPrefix("Bidi") == true } }
            XCTAssertTrue(iterateMainContext(timeout: 15) { !ours().isEmpty })
            let finished = try XCTUnwrap(ours().last)
            XCTAssertEqual(finished.string("title"), "Bidi: print finished")
            XCTAssertEqual(finished.string("body"), "Gear v2")
        }
    }
}

extension HostilePrinterTests {
    /// CPU seconds (user + system) of this process's main thread and of the whole process, from
    /// /proc (clock ticks of 1/100 s).
    static func mainThreadCPU() -> Double { ThreadCensus.cpuSeconds(statFile: "/proc/self/task/\(getpid())/stat") }
    static func processCPU() -> Double { ThreadCensus.cpuSeconds(statFile: "/proc/self/stat") }
}

/// Numbers no printer sends, for the fuzz: huge, negative, non-finite (as JSON strings, which is
/// how they can travel), integers past 64 bits, fractions, and plain ones.
private struct HostileNumbers {
    func any() -> Any {
        let picks: [Any] = [1e308, -1e308, 1e19, -1, 0, 0.5, "NaN", "Infinity", "-inf", "1e400", Int64.max, UInt64.max,
                            4_294_967_296, "12", "", true, NSNull(), Double.random(in: -1e20...1e20), Int.random(in: -1000...100_000)]
        return picks.randomElement()!
    }
}

/// `layerwatch status TARGET --watch --json` running beside the app, its code given on standard input.
private final class StatusWatcher {
    let target: String
    private let process = Process()
    private let output = Pipe()

    init(target: String, code: String) throws {
        self.target = target
        process.executableURL = CommandRun.productsDirectory.appendingPathComponent("layerwatch")
        process.arguments = ["status", target, "--watch", "--json"] + (code.isEmpty ? [] : ["--code-from-stdin"])
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data((code + "\n").utf8))
        try input.fileHandleForWriting.close()
    }

    /// Interrupts it as Ctrl+C would: whether it was still running until then (and so ended by
    /// the interrupt), and the lines it printed.
    func stop() -> (interrupted: Bool, lines: [String]) {
        let running = process.isRunning
        process.interrupt()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let interrupted = running && process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGINT
        return (interrupted, text.split(separator: "\n").map(String.init))
    }
}
