import CGtk
import Foundation
import JournalKit
import TestSupport
import XCTest

/// `layerwatch --background`, as the login starts it, run as a process: no window, the printer's
/// status polled; launching `layerwatch` again shows the window of that same process; Ctrl+Q ends
/// it. With nothing to watch, `--background` ends at once. Closing the window of a `layerwatch`
/// that watches a printer makes that process (the same process id) a `layerwatch --background`, also
/// once a timelapse that held it at first lets its camera go.
final class BackgroundLaunchTests: XCTestCase {
    /// How long a launched process may take to show its window: a liveness wait, not a speed check
    /// (a first start beside the other test lanes' work has taken over 20 s on two cores).
    static let windowWait: TimeInterval = 60

    func testBackgroundStartWatchesWithNoWindowAndALaunchShowsItsWindow() throws {
        let watch = try Watch()
        let first = try watch.launch(["--background"])
        defer { first.end() }
        XCTAssertTrue(waitUntil(timeout: 20) { watch.moonraker.events(named: "request").count >= 3 }, "the status is polled")
        XCTAssertTrue(Self.windows(of: first.id).isEmpty, "no window")
        XCTAssertTrue(watch.camera.events(named: "request").isEmpty, "no camera is opened for nobody")
        XCTAssertEqual(Self.openGLLibraries(of: first.id), [], "drawing with cairo, no OpenGL driver is loaded")

        // Launching again (the desktop menu, `layerwatch`) shows the window of the running process.
        try watch.launchAgain()
        XCTAssertTrue(waitUntil(timeout: Self.windowWait) { !Self.windows(of: first.id).isEmpty }, "the window is back")
        XCTAssertTrue(first.process.isRunning)
        XCTAssertNotNil(watch.camera.waitFor("request", timeout: 10), "its tab shows the camera")
        XCTAssertEqual(Self.openGLLibraries(of: first.id), [], "nor once its window is shown")
        try Self.quitWithControlQ(first)
    }

    /// A print that finishes while Layerwatch runs with no window is in the journal once, finished,
    /// with its first-layer and final pictures: the camera (not connected in the background)
    /// connected for a moment, its full-resolution frame a JPEG beside the journal; `layerwatch
    /// history` lists it.
    func testAPrintFinishedInTheBackgroundIsInTheJournalWithItsFinalPicture() throws {
        let watch = try Watch()
        let first = try watch.launch(["--background"])
        defer { first.end() }
        try Self.runPrint("gear.gcode", through: watch)
        let journal = JournalStore(url: watch.journal)
        XCTAssertTrue(waitUntil(timeout: 30, poll: 0.5) { journal.prints(JournalQuery()).first?.finalPicture != nil },
                      "\(journal.prints(JournalQuery())) \(first.output)")
        watch.moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "standby", "filename": ""]]])
        Thread.sleep(forTimeInterval: 2)  // polled again: nothing new
        let prints = journal.prints(JournalQuery())
        XCTAssertEqual(prints.map(\.job), ["gear.gcode"], "one print")
        let recorded = try XCTUnwrap(prints.first)
        XCTAssertEqual(recorded.result, .finished)
        XCTAssertEqual(recorded.printerName, "Voron")
        XCTAssertNotNil(recorded.ended)
        let picture = try XCTUnwrap(recorded.finalPicture)
        let firstLayer = try XCTUnwrap(recorded.firstLayerPicture)
        XCTAssertNotEqual(picture, firstLayer)
        for taken in [picture, firstLayer] {
            XCTAssertEqual(taken.deletingLastPathComponent().path, watch.journal.deletingLastPathComponent().appendingPathComponent("pictures").path)
            XCTAssertEqual(taken.pathExtension, "jpg")
            let bytes = try Data(contentsOf: taken)
            XCTAssertEqual(Array(bytes.prefix(2)), [0xFF, 0xD8], "a JPEG")
            let texture = try XCTUnwrap(gdk_texture_new_from_filename(taken.path, nil), "the JPEG decodes")
            defer { g_object_unref(UnsafeMutableRawPointer(texture)) }
            XCTAssertEqual([gdk_texture_get_width(texture), gdk_texture_get_height(texture)], [640, 480], "the camera's full frame")
        }

        // `layerwatch history` reads what the running app wrote.
        let history = try CommandRun.product("layerwatch", ["history", "--json"], timeout: 30, environment: watch.environment)
        XCTAssertEqual(history.status, 0, history.stderr)
        let listed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]], history.stdout)
        XCTAssertEqual(listed.map { $0["job"] as? String }, ["gear.gcode"], "one entry")
        XCTAssertEqual(listed.first?["result"] as? String, "finished")
        XCTAssertEqual(listed.first?["duration"] as? Int, recorded.duration.map { Int($0.rounded()) })
        XCTAssertEqual(listed.first?["finalPicture"] as? String, picture.path)
    }

    /// The prints the printer's own history remembers (Moonraker's job history), ended while
    /// Layerwatch was not running, are in the journal once each as soon as its status is live,
    /// marked as from the printer's history, and `layerwatch history --json` says so; a second
    /// start adds nothing.
    func testPrintsThePrinterRemembersAreTakenOnceFromItsHistory() throws {
        let watch = try Watch()
        let start = Date().timeIntervalSince1970.rounded(.down) - 7200
        func job(_ id: String, _ status: String, _ file: String, _ begun: Double) -> [String: Any] {
            ["job_id": id, "filename": file, "status": status, "start_time": begun,
             "end_time": status == "in_progress" ? NSNull() : begun + 1500, "filament_used": 800, "metadata": [:]]
        }
        watch.moonraker.send(["cmd": "history", "jobs": [job("000003", "in_progress", "now.gcode", start + 3600),
                                                        job("000002", "klippy_shutdown", "tower.gcode", start + 1800),
                                                        job("000001", "completed", "bracket.gcode", start)]])
        XCTAssertNotNil(watch.moonraker.waitFor("done") { $0.string("cmd") == "history" })
        let asked = { watch.moonraker.events(named: "request").filter { $0.string("path")?.hasPrefix("/server/history/list?limit=50") == true }.count }
        let journal = JournalStore(url: watch.journal)
        for launch in 1...2 {
            let launched = try watch.launch(["--background"])
            defer { launched.end() }
            XCTAssertTrue(waitUntil(timeout: 30) { asked() == launch }, "the history is asked once a start: \(launched.output)")
            XCTAssertTrue(waitUntil(timeout: 10, poll: 0.5) { journal.prints(JournalQuery()).count == 2 }, "\(journal.prints(JournalQuery()))")
            Thread.sleep(forTimeInterval: 2)  // polled again: nothing new
            XCTAssertEqual(asked(), launch, "not asked at every poll")
            launched.end()

            let history = try CommandRun.product("layerwatch", ["history", "--json"], timeout: 30, environment: watch.environment)
            XCTAssertEqual(history.status, 0, history.stderr)
            let listed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]], history.stdout)
            XCTAssertEqual(listed.map { $0["job"] as? String }, ["tower.gcode", "bracket.gcode"], "once each, newest first (start \(launch))")
            XCTAssertEqual(listed.map { $0["result"] as? String }, ["failed", "finished"])
            XCTAssertEqual(listed.map { $0["error"] as? String }, ["Klipper shut down during the print", nil])
            XCTAssertEqual(listed.map { $0["duration"] as? Int }, [1500, 1500])
            XCTAssertEqual(listed.map { $0["fromPrinterHistory"] as? Bool }, [true, true])
        }
    }

    func testAnEditMadeInTheBackgroundIsFollowedAndShownWhenTheWindowComesBack() throws {
        let watch = try Watch()
        let bench = try TestServer(script: "moonraker_server.py")
        defer { bench.stop() }
        let first = try watch.launch(["--background"])
        defer { first.end() }
        XCTAssertTrue(waitUntil(timeout: 20) { watch.moonraker.events(named: "request").count >= 2 }, "the status is polled")

        // Renamed, and a printer added, by hand with no window.
        try watch.writeConfig([watch.printer(id: "6F9619FF", name: "Voron 2.4", port: watch.moonraker.port),
                               watch.printer(id: "5A9619FF", name: "Bench", port: bench.port)])
        XCTAssertNotNil(bench.waitFor("request", timeout: 20), "the added printer's status is polled: \(first.output)")
        XCTAssertTrue(Self.windows(of: first.id).isEmpty, "no window")

        try watch.launchAgain()
        XCTAssertTrue(waitUntil(timeout: 15) { Self.windowNames(of: first.id) == ["Voron 2.4 — Layerwatch"] },
                      "the window comes back with the edit: \(Self.windowNames(of: first.id))")
        try Self.quitWithControlQ(first)
        let saved = try String(contentsOf: URL(fileURLWithPath: watch.environment["XDG_CONFIG_HOME"]!).appendingPathComponent("layerwatch/printers.json"),
                               encoding: .utf8)
        XCTAssertTrue(saved.contains("Voron 2.4") && saved.contains("Bench"), "what Quit saved keeps the edit: \(saved)")
    }

    func testClosingTheWindowRestartsTheSameProcessAsABackgroundStart() throws {
        let watch = try Watch()
        let manager = try WindowManager()  // closing is a request to it (WM_DELETE_WINDOW), as Alt+F4 is
        let first = try watch.launch([])
        defer { first.end() }
        XCTAssertTrue(waitUntil(timeout: Self.windowWait) { !Self.windows(of: first.id).isEmpty }, "the window shows")
        XCTAssertNotNil(watch.camera.waitFor("request", timeout: 15), "its tab shows the camera")
        XCTAssertEqual(Self.arguments(of: first.id), [])

        let window = try XCTUnwrap(Self.windows(of: first.id).first)
        XCTAssertEqual(Self.xdotool(["windowactivate", "--sync", window, "key", "--clearmodifiers", "alt+F4"]).status, 0)
        XCTAssertTrue(waitUntil(timeout: 30) { Self.arguments(of: first.id) == ["--background"] },
                      "the same process became `layerwatch --background`: \(Self.arguments(of: first.id)) \(first.output)")
        XCTAssertTrue(first.process.isRunning)
        XCTAssertTrue(Self.windows(of: first.id).isEmpty, "no window")
        let polls = watch.moonraker.events(named: "request").count
        XCTAssertTrue(waitUntil(timeout: 20) { watch.moonraker.events(named: "request").count >= polls + 3 },
                      "the restarted process polls the status")
        withExtendedLifetime(manager) {}

        // Launching again shows the window of that process.
        try watch.launchAgain()
        XCTAssertTrue(waitUntil(timeout: Self.windowWait) { !Self.windows(of: first.id).isEmpty }, "the window is back")
        try Self.quitWithControlQ(first)
    }

    func testAPrintThatEndsAfterTheRestartIsNotifiedAndTheClickShowsTheWindow() throws {
        let watch = try Watch(notifies: true)
        let notifications = try TestServer(script: "notification_server.py")
        defer { notifications.stop() }
        let manager = try WindowManager()
        let first = try watch.launch([])
        defer { first.end() }
        XCTAssertTrue(waitUntil(timeout: Self.windowWait) { !Self.windows(of: first.id).isEmpty }, "the window shows")
        watch.moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "gear.gcode"]]])
        let polls = watch.moonraker.events(named: "request").count
        XCTAssertTrue(waitUntil(timeout: 20) { watch.moonraker.events(named: "request").count >= polls + 3 }, "the print is seen")

        let window = try XCTUnwrap(Self.windows(of: first.id).first)
        XCTAssertEqual(Self.xdotool(["windowactivate", "--sync", window, "key", "--clearmodifiers", "alt+F4"]).status, 0)
        XCTAssertTrue(waitUntil(timeout: 30) { Self.arguments(of: first.id) == ["--background"] }, first.output)
        let restarted = watch.moonraker.events(named: "request").count
        XCTAssertTrue(waitUntil(timeout: 20) { watch.moonraker.events(named: "request").count >= restarted + 3 }, "polled again")

        // The print ends while only the restarted process watches: the ledger it read tells it the
        // print was under way, so its end is told.
        watch.moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "complete"]]])
        let finished = notifications.waitFor("notification", timeout: 30) { $0.string("title") == "Voron: print finished" }
        XCTAssertEqual(finished?.string("body"), "gear.gcode", "\(notifications.events(named: "notification").map(\.fields)) \(first.output)")
        notifications.send(["cmd": "click"])
        XCTAssertTrue(waitUntil(timeout: Self.windowWait) { !Self.windows(of: first.id).isEmpty }, "the click shows the window of that process")
        withExtendedLifetime(manager) {}
        try Self.quitWithControlQ(first)
    }

    func testARestartPutOffByATimelapseHappensWhenItsPrintEnds() throws {
        let watch = try Watch(timelapse: true)
        let manager = try WindowManager()
        let first = try watch.launch([])
        defer { first.end() }
        XCTAssertTrue(waitUntil(timeout: Self.windowWait) { !Self.windows(of: first.id).isEmpty }, "the window shows")
        XCTAssertNotNil(watch.camera.waitFor("request", timeout: 15), "its tab shows the camera")
        // A print runs: its timelapse holds the camera, which would be lost with the process.
        watch.moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "gear.gcode"]]])
        let polls = watch.moonraker.events(named: "request").count
        XCTAssertTrue(waitUntil(timeout: 20) { watch.moonraker.events(named: "request").count >= polls + 3 }, "the print is seen")

        let window = try XCTUnwrap(Self.windows(of: first.id).first)
        XCTAssertEqual(Self.xdotool(["windowactivate", "--sync", window, "key", "--clearmodifiers", "alt+F4"]).status, 0)
        XCTAssertTrue(waitUntil(timeout: 15) { first.output.contains("restarting lean when it ends") }, "the settle finds the hold: \(first.output)")
        XCTAssertEqual(Self.arguments(of: first.id), [], "not restarted while the timelapse holds its camera")

        // The print ends: the camera is let go, and the restart put off happens.
        watch.moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "complete"]]])
        XCTAssertTrue(waitUntil(timeout: 30) { Self.arguments(of: first.id) == ["--background"] },
                      "the same process became `layerwatch --background`: \(Self.arguments(of: first.id)) \(first.output)")
        let restarted = watch.moonraker.events(named: "request").count
        XCTAssertTrue(waitUntil(timeout: 20) { watch.moonraker.events(named: "request").count >= restarted + 3 }, "polled again")
        withExtendedLifetime(manager) {}
        try watch.launchAgain()
        XCTAssertTrue(waitUntil(timeout: Self.windowWait) { !Self.windows(of: first.id).isEmpty }, "the window is back")
        try Self.quitWithControlQ(first)
    }

    /// Another program destroying the main window (XDestroyWindow, as `xdotool windowclose` does)
    /// closes it as its close button would: watching a printer, the process goes on in the
    /// background (and becomes `layerwatch --background`); GDK does not abort.
    func testAWindowDestroyedFromOutsideClosesToTheBackground() throws {
        let watch = try Watch()
        let first = try watch.launch([])
        defer { first.end() }
        XCTAssertTrue(waitUntil(timeout: Self.windowWait) { !Self.windows(of: first.id).isEmpty }, "the window shows")
        XCTAssertNotNil(watch.camera.waitFor("request", timeout: 15), "its tab shows the camera")

        let window = try XCTUnwrap(Self.windows(of: first.id).first)
        XCTAssertEqual(Self.xdotool(["windowclose", window]).status, 0)
        XCTAssertTrue(waitUntil(timeout: 30) { Self.arguments(of: first.id) == ["--background"] || !first.process.isRunning },
                      "the same process became `layerwatch --background`: \(Self.arguments(of: first.id)) \(first.output)")
        XCTAssertTrue(first.process.isRunning, "not ended (\(Self.ending(of: first))): \(first.output)")
        Self.assertNoGDKFailure(in: first.output)
        XCTAssertTrue(first.output.contains("another program destroyed a window of Layerwatch"), first.output)
        let polls = watch.moonraker.events(named: "request").count
        XCTAssertTrue(waitUntil(timeout: 20) { watch.moonraker.events(named: "request").count >= polls + 3 },
                      "the restarted process polls the status")

        try watch.launchAgain()
        XCTAssertTrue(waitUntil(timeout: Self.windowWait) { !Self.windows(of: first.id).isEmpty }, "the window is back")
        try Self.quitWithControlQ(first)
        Self.assertNoGDKFailure(in: first.output)
    }

    /// A mini window is picture-in-picture while working: closing the main window leaves it open,
    /// still reading the camera, in the same process (neither ended nor restarted in the background),
    /// and Ctrl+Q in it ends everything.
    func testClosingTheWindowLeavesTheMiniWindowInTheRunningProcess() throws {
        let watch = try Watch()
        try watch.writeConfig([watch.printer(id: "6F9619FF", name: "Voron", port: watch.moonraker.port)],
                              members: [#""miniWindows": [{"printerID": "6F9619FF-8B86-D011-B42D-00CF4FC964FF", "width": 400, "height": 225}]"#])
        let first = try watch.launch([])
        defer { first.end() }
        XCTAssertTrue(waitUntil(timeout: Self.windowWait) { !Self.windows(of: first.id).isEmpty && !Self.miniWindows(of: first.id).isEmpty },
                      "the window and its mini window: \(first.output)")
        XCTAssertNotNil(watch.camera.waitFor("request", timeout: 15), "the camera is read")

        let window = try XCTUnwrap(Self.windows(of: first.id).first)
        XCTAssertEqual(Self.xdotool(["windowclose", window]).status, 0)
        XCTAssertTrue(waitUntil(timeout: 10) { !Self.windows(of: first.id).contains(window) }, "the main window is gone")
        Thread.sleep(forTimeInterval: Double(6))  // longer than the background's settle, after which a lean restart would come
        XCTAssertTrue(first.process.isRunning, "not ended (\(Self.ending(of: first))): \(first.output)")
        XCTAssertEqual(Self.arguments(of: first.id), [], "not restarted as `layerwatch --background`")
        XCTAssertEqual(Self.miniWindows(of: first.id).count, 1, "the mini window stays on screen")
        XCTAssertEqual(watch.camera.events(named: "stream-closed").count, 0, "still reading its camera")

        let mini = try XCTUnwrap(Self.miniWindows(of: first.id).first)
        XCTAssertEqual(Self.xdotool(["windowfocus", "--sync", mini, "key", "--clearmodifiers", "ctrl+q"]).status, 0)
        XCTAssertTrue(waitUntil(timeout: 15) { !first.process.isRunning }, "Ctrl+Q quits: \(first.output)")
        XCTAssertEqual(first.process.terminationStatus, 0)
        Self.assertNoGDKFailure(in: first.output)
    }

    /// With nothing watched, the destroyed window ends the process as closing it does: status 0.
    /// Destroyed at a different moment of the demo's playback each time: one destroyed while a frame
    /// is drawn leaves cairo freeing a back buffer made on the dead window (BadPixmap), which ended
    /// about one process in six.
    func testAWindowDestroyedFromOutsideWithNothingWatchedEndsTheProcess() throws {
        let watch = try Watch(printers: false)
        for round in 0..<10 {
            let first = try watch.launch(["--demo"])
            defer { first.end() }
            XCTAssertTrue(waitUntil(timeout: Self.windowWait) { !Self.windows(of: first.id).isEmpty },
                          "round \(round): the window shows (\(Self.ending(of: first))): \(first.output)")
            let window = try XCTUnwrap(Self.windows(of: first.id).first)
            Thread.sleep(forTimeInterval: 0.07 * Double(round))
            XCTAssertEqual(Self.xdotool(["windowclose", window]).status, 0)
            XCTAssertTrue(waitUntil(timeout: 15) { !first.process.isRunning }, "the process ends with its window: \(first.output)")
            XCTAssertEqual(Self.ending(of: first), "exit 0", "round \(round): \(first.output)")
            Self.assertNoGDKFailure(in: first.output)
        }
    }

    /// GDK's hidden leader window (1×1, unmapped, named after the program: what
    /// `xdotool search --name Layerwatch` finds first) destroyed from outside: the process goes on
    /// with its window, and a launch — which sets the startup id on that window — still shows it.
    func testTheHiddenLeaderWindowDestroyedFromOutsideIsSurvived() throws {
        let watch = try Watch()
        let manager = try WindowManager()
        let first = try watch.launch([])
        defer { first.end() }
        XCTAssertTrue(waitUntil(timeout: Self.windowWait) { !Self.windows(of: first.id).isEmpty }, "the window shows")
        let shown = Self.windows(of: first.id)
        let hidden = Self.xdotool(["search", "--pid", "\(first.id)", "--name", "Layerwatch"]).output
            .split(separator: "\n").map(String.init).filter { !shown.contains($0) }
        XCTAssertFalse(hidden.isEmpty, "GDK's leader window is found")
        for window in hidden { XCTAssertEqual(Self.xdotool(["windowclose", window]).status, 0) }

        XCTAssertFalse(waitUntil(timeout: 3) { !first.process.isRunning }, "still running: \(Self.ending(of: first)) \(first.output)")
        XCTAssertEqual(Self.windows(of: first.id), shown, "its window stays")
        try watch.launchAgain(environment: ["DESKTOP_STARTUP_ID": "layerwatch-test_TIME0"])
        XCTAssertTrue(first.process.isRunning, "a launch after it: \(Self.ending(of: first)) \(first.output)")
        withExtendedLifetime(manager) {}
        try Self.quitWithControlQ(first)
        Self.assertNoGDKFailure(in: first.output)
    }

    func testBackgroundStartWithNothingToWatchEnds() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("needs a session bus: run under dbus-run-session (make test)")
        }
        let config = try TestPaths.temporaryDirectory()
        let run = try CommandRun.product("layerwatch", ["--background"], timeout: 20,
                                         environment: ["XDG_CONFIG_HOME": config.path, "XDG_STATE_HOME": config.path, "GSK_RENDERER": "cairo"])
        XCTAssertEqual(run.status, 0, run.stderr)
    }

    /// Start at login on: the entry the real binary writes names that binary by its path (no
    /// `layerwatch` on PATH), read back as the Desktop Entry Specification says (GLib's key file and
    /// shell parsing).
    func testStartAtLoginNamesTheBinaryThatRuns() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("needs a session bus: run under dbus-run-session (make test)")
        }
        let config = try TestPaths.temporaryDirectory()
        try FileManager.default.createDirectory(at: config.appendingPathComponent("layerwatch"), withIntermediateDirectories: true)
        try Data(#"{"formatVersion": 3, "preferences": {"startAtLogin": true}, "printers": []}"#.utf8)
            .write(to: config.appendingPathComponent("layerwatch/printers.json"))
        let run = try CommandRun.product("layerwatch", ["--background"], timeout: 20,
                                         environment: ["XDG_CONFIG_HOME": config.path, "XDG_STATE_HOME": config.path,
                                                       "GSK_RENDERER": "cairo", "PATH": "/usr/bin:/bin"])
        XCTAssertEqual(run.status, 0, run.stderr)

        let entry = config.appendingPathComponent("autostart/io.github.layerwatch.Layerwatch.desktop").path
        let keys = g_key_file_new()!
        defer { g_key_file_free(keys) }
        XCTAssertTrue(Bool(gboolean: g_key_file_load_from_file(keys, entry, G_KEY_FILE_NONE, nil)), "the entry is written")
        let exec = try XCTUnwrap(g_key_file_get_string(keys, "Desktop Entry", "Exec", nil))
        defer { g_free(exec) }
        var count: Int32 = 0
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        XCTAssertTrue(Bool(gboolean: g_shell_parse_argv(exec, &count, &argv, nil)), String(cString: exec))
        defer { g_strfreev(argv) }
        let arguments = (0..<Int(count)).map { String(cString: argv![$0]!) }
        let product = CommandRun.productsDirectory.appendingPathComponent("layerwatch").resolvingSymlinksInPath().path
        XCTAssertEqual(arguments, [product, "--background"])
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: arguments[0]))
    }


    /// Runs a print of `job` on the watched printer, its first layer then its second, until it is
    /// complete, each seen by the running Layerwatch.
    private static func runPrint(_ job: String, through watch: Watch) throws {
        XCTAssertTrue(waitUntil(timeout: 20) { watch.moonraker.events(named: "request").count >= 3 }, "the status is polled")
        for (state, layer) in [("printing", 1), ("printing", 2), ("complete", 2)] {
            watch.moonraker.send(["cmd": "set", "status": ["print_stats": ["state": state, "filename": job,
                                                                          "info": ["current_layer": layer, "total_layer": 2]]]])
            let polls = watch.moonraker.events(named: "request").count
            XCTAssertTrue(waitUntil(timeout: 20) { watch.moonraker.events(named: "request").count >= polls + 3 }, "seen: \(state) \(layer)")
        }
    }

    /// A Klipper printer to watch, its Moonraker and MJPEG camera on loopback, in a config of its own.
    private final class Watch {
        let moonraker: TestServer
        let camera: TestServer
        let environment: [String: String]
        /// The print journal the launched Layerwatch writes (`$XDG_DATA_HOME/layerwatch/journal.sqlite3`).
        var journal: URL { config.appendingPathComponent("data/layerwatch/journal.sqlite3") }
        private let config: URL
        /// Keeps Xvfb from resetting between the launches and polls (`DisplayHold`).
        private let display: DisplayHold

        /// `notifies`: whether the printer's prints are notified; `timelapse`: whether they are
        /// filmed (a picture per layer); `printers`: whether there is one.
        init(notifies: Bool = false, timelapse: Bool = false, printers: Bool = true) throws {
            let environment = ProcessInfo.processInfo.environment
            guard environment["DBUS_SESSION_BUS_ADDRESS"] != nil, environment["DISPLAY"] != nil else {
                throw XCTSkip("needs a session bus and a display: run under dbus-run-session and xvfb-run (make test)")
            }
            display = try DisplayHold()
            moonraker = try TestServer(script: "moonraker_server.py")
            camera = try TestServer(script: "mjpeg_server.py")
            config = try TestPaths.temporaryDirectory()
            try FileManager.default.createDirectory(at: config.appendingPathComponent("layerwatch"), withIntermediateDirectories: true)
            self.environment = ["XDG_CONFIG_HOME": config.path, "XDG_STATE_HOME": config.appendingPathComponent("state").path,
                                "XDG_DATA_HOME": config.appendingPathComponent("data").path,
                                "G_MESSAGES_DEBUG": "Layerwatch", "GSK_RENDERER": "cairo"]
            try writeConfig(printers ? [printer(id: "6F9619FF", name: "Voron", port: moonraker.port, notifies: notifies, timelapse: timelapse)] : [])
        }

        deinit {
            moonraker.stop()
            camera.stop()
        }

        /// A Klipper printer of printers.json (`id`: its id's first 8 hex digits) on the Moonraker at
        /// `port`, with the camera.
        func printer(id: String, name: String, port: Int, notifies: Bool = false, timelapse: Bool = false) -> String {
            """
            {"id": "\(id)-8B86-D011-B42D-00CF4FC964FF", "name": "\(name)", "kind": "klipper", "host": "127.0.0.1", "apiPort": \(port),
              "notifies": \(notifies), \(timelapse ? #""timelapse": "layer","# : "") "cameras": [
                {"id": "7\(id.dropFirst())-8B86-D011-B42D-00CF4FC964FF", "url": "http://127.0.0.1:\(camera.port)/?action=stream"}]}
            """
        }

        /// Writes printers.json with `printers` (`printer`'s) and the other top-level `members`, in
        /// place, as an editor does.
        func writeConfig(_ printers: [String], members: [String] = []) throws {
            let all = [#""formatVersion": 3"#, #""backgroundNoticeShown": true"#, #""printers": [\#(printers.joined(separator: ", "))]"#] + members
            try Data("{\(all.joined(separator: ", "))}".utf8).write(to: config.appendingPathComponent("layerwatch/printers.json"))
        }

        /// Starts `layerwatch ARGUMENTS` and leaves it running, its output in a log file.
        func launch(_ arguments: [String]) throws -> Launched {
            let process = Process()
            process.executableURL = CommandRun.productsDirectory.appendingPathComponent("layerwatch")
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let log = config.appendingPathComponent("layerwatch-\(UUID().uuidString).log")
            XCTAssertTrue(FileManager.default.createFile(atPath: log.path, contents: nil))
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            return Launched(process: process, log: log)
        }

        /// Launches `layerwatch` again, as the desktop menu does (with `extra` in its environment),
        /// and waits for it to hand over.
        func launchAgain(environment extra: [String: String] = [:]) throws {
            let second = try CommandRun.product("layerwatch", [], timeout: 20, environment: environment.merging(extra) { $1 })
            XCTAssertEqual(second.status, 0, second.stderr)
        }
    }

    /// A `layerwatch` process the test started.
    private struct Launched {
        let process: Process
        let log: URL
        var id: Int32 { process.processIdentifier }
        var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

        func end() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    /// Ctrl+Q in its window ends the process, with status 0.
    private static func quitWithControlQ(_ launched: Launched) throws {
        let window = try XCTUnwrap(windows(of: launched.id).first)
        XCTAssertEqual(xdotool(["windowfocus", "--sync", window, "key", "--clearmodifiers", "ctrl+q"]).status, 0)
        XCTAssertTrue(waitUntil(timeout: 15) { !launched.process.isRunning }, "Ctrl+Q quits: \(launched.output)")
        XCTAssertEqual(launched.process.terminationStatus, 0)
    }

    /// How a launched process ended: "exit N", "signal N", or "running".
    private static func ending(of launched: Launched) -> String {
        guard !launched.process.isRunning else { return "running" }
        let status = launched.process.terminationStatus
        return launched.process.terminationReason == .uncaughtSignal ? "signal \(status)" : "exit \(status)"
    }

    /// No GDK assertion (the abort a destroyed window caused) and no X error (which ends a GTK program).
    private static func assertNoGDKFailure(in output: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(output.contains("Gdk:ERROR"), output, file: file, line: line)
        XCTAssertFalse(output.contains("X Window System error"), output, file: file, line: line)
    }


    /// The arguments process `pid` runs with now, after its program's name (`/proc/PID/cmdline`).
    private static func arguments(of pid: Int32) -> [String] {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
        return data.split(separator: 0).dropFirst().map { String(decoding: $0, as: UTF8.self) }
    }

    /// The OpenGL drivers (Mesa's `*_dri.so`, LLVM) process `pid` has mapped.
    private static func openGLLibraries(of pid: Int32) -> Set<String> {
        let maps = (try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)) ?? ""
        return Set(maps.split(separator: "\n").compactMap { line in
            line.split(separator: "/").last.map(String.init).flatMap { $0.hasSuffix("_dri.so") || $0.hasPrefix("libLLVM") ? $0 : nil }
        })
    }

    /// The visible top-level windows of process `pid` (xdotool's search; a window is listed once mapped).
    private static func windows(of pid: Int32) -> [String] {
        xdotool(["search", "--onlyvisible", "--pid", "\(pid)", "--name", "Layerwatch"]).output
            .split(separator: "\n").map(String.init)
    }

    /// The visible mini windows of process `pid` (titled "NAME - PiP").
    private static func miniWindows(of pid: Int32) -> [String] {
        xdotool(["search", "--onlyvisible", "--pid", "\(pid)", "--name", "PiP"]).output
            .split(separator: "\n").map(String.init)
    }

    /// The names of the visible top-level windows of process `pid`.
    private static func windowNames(of pid: Int32) -> [String] {
        windows(of: pid).map { xdotool(["getwindowname", $0]).output.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    private static func xdotool(_ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return (-1, "") }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
