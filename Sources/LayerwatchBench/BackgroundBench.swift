import Foundation
import StreamKit

/// `layerwatch-bench background`: what Layerwatch costs with its window closed against shown. On
/// the screen bench's private X server, 8 Klipper printers, each with its loopback Moonraker
/// (printing, with progress) and a camera on the camera-like 1080p30 RTSPS stream (one path, so
/// one connection, each): Layerwatch's window shown (the farm view with 8 tiles, then in a fresh
/// process the 8 printers in tabs); the farm's process after its window is closed as a user does
/// (openbox's Alt+F4); and `layerwatch --background` started fresh. Beside them in the same run:
/// the cameras held connected at keyframes only instead of let go (`layerwatch-bench scenario
/// --mode hidden`, 8 sessions) and `ffmpeg -f null` × 8 (the decode floor). For each: CPU of the
/// process tree and RSS over the same window, with the stream server's, the status servers', the
/// X server's and the rest of the machine's CPU beside it. Prints a table and writes the results
/// file; it asserts nothing.
enum BackgroundBench {
    static let printers = 8

    static func run(arguments: [String]) {
        let flags = Flags(arguments: arguments)
        let quick = flags.has("--quick")
        let plan = Plan(settle: flags.double("--settle", default: quick ? 4 : 8), seconds: flags.double("--seconds", default: quick ? 10 : 30),
                        quick: quick)
        BenchRun.command("background") { temporary in
            let machine = Machine.current(), started = Date()
            let logs = flags.string("--logs").map { URL(fileURLWithPath: $0) } ?? temporary
            try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
            try ScreenDesk.run(in: temporary, flags: flags) { desk in
                BenchRun.progress("\(printers) loopback Moonraker printers, printing")
                let status = try MoonrakerPrinters(count: printers)
                defer { status.stop() }
                BenchRun.progress("server: \(FarmStream.fullHD.label), \(StreamProfile.cameraLike.label), \(printers) paths")
                let server = try BenchServer(script: flags.string("--server") ?? "Tests/Servers/rtsp_server.py", profile: .cameraLike,
                                             extra: ["--screen-marks", "--paths", "\(printers)"])
                defer { server.stop() }
                let bench = Bench(desk: desk, logs: logs, status: status, server: server,
                                  serverPIDs: FarmProcesses.children(matching: "rtsp_server.py"), plan: plan)
                let runs = bench.measureAll(tabs: !flags.has("--no-tabs"), peers: !flags.has("--no-peers"))
                let report = BackgroundReport(machine: machine, plan: plan, runs: runs, minutes: Date().timeIntervalSince(started) / 60)
                try BenchRun.publish(table: report.table(), markdown: report.markdown(), to: flags.string("--results") ?? "bench/BACKGROUND.md")
            }
        }
    }

    /// How a run is timed: `settle` s once it is in the state measured, then a `seconds` window.
    struct Plan {
        let settle: Double
        let seconds: Double
        let quick: Bool
        /// How long the app gets to show its pictures, or to let its cameras go.
        static let stateLimit = 30.0
    }

    /// What every run needs: the desk, the printers' status servers and camera server, where logs go.
    private struct Bench {
        let desk: ScreenDesk
        let logs: URL
        let status: MoonrakerPrinters
        let server: BenchServer
        let serverPIDs: [Int32]
        let plan: Plan

        var urls: [String] { (1...printers).map { $0 == 1 ? server.url : "\(server.url)/\($0)" } }

        /// Every phase in turn, each a failure row rather than the end of the bench when it goes wrong.
        func measureAll(tabs: Bool, peers: Bool) -> [BackgroundRun] {
            var runs: [BackgroundRun] = []
            BenchRun.progress("Layerwatch shown: the farm view, \(printers) tiles")
            runs += attempt(.farm) { try shownThenClosed() }
            if tabs {
                BenchRun.progress("Layerwatch shown: \(printers) printers in tabs")
                runs += attempt(.tabs) { [try shown(farm: false)] }
            }
            BenchRun.progress("layerwatch --background, started fresh")
            runs += attempt(.started) { [try startedInBackground()] }
            if peers {
                BenchRun.progress("\(printers) cameras held connected at keyframes only (layerwatch-bench scenario --mode hidden)")
                runs += attempt(.keyframes) { [try keyframesOnly()] }
                BenchRun.progress("ffmpeg -f null × \(printers), the decode floor")
                runs += attempt(.ffmpeg) { [try decodeFloor()] }
            }
            return runs
        }

        private func attempt(_ phase: BackgroundPhase, _ body: () throws -> [BackgroundRun]) -> [BackgroundRun] {
            do { return try body() } catch {
                FileHandle.standardError.write(Data("\(phase.label): \(error)\n".utf8))
                var failed = BackgroundRun(phase: phase)
                failed.failure = "\(error)"
                return [failed]
            }
        }

        /// The farm shown, measured; its window closed with Alt+F4 as a user does; the same process
        /// measured again once the camera server has seen every camera go.
        private func shownThenClosed() throws -> [BackgroundRun] {
            let (app, log) = try startApp(farm: true, arguments: [])
            defer { StartedProcesses.stop(app) }
            let shown = try measureShown(app, phase: .farm, log: log)
            guard let window = windows(of: app.processIdentifier).first else { throw BenchError("no window to close") }
            BenchRun.progress("closing the window: xdotool windowactivate, key alt+F4 (openbox's Close)")
            xdotool(["windowactivate", "--sync", window, "key", "--clearmodifiers", "alt+F4"])
            let closed = Date()
            guard waitUntil({ windows(of: app.processIdentifier).isEmpty || !app.isRunning }) else {
                throw BenchError("the window is still shown \(Int(Plan.stateLimit)) s after Alt+F4")
            }
            guard app.isRunning else { throw BenchError("Layerwatch exited when its window closed (status \(app.terminationStatus)); its output ends:\n\(BenchRun.tail(of: log))") }
            let released = waitUntil { server.clients <= 1 }  // the keeper alone
            var background = BackgroundRun(phase: .closed)
            background.camerasGoneSeconds = released ? Date().timeIntervalSince(closed) : nil
            let restarted = waitUntil { ProcFS.arguments(of: app.processIdentifier).dropFirst().contains("--background") }
            background.restartedSeconds = restarted ? Date().timeIntervalSince(closed) : nil
            Thread.sleep(forTimeInterval: plan.settle)
            return [shown, measure(background, roots: [app.processIdentifier], app: app, log: log)]
        }

        /// A fresh process showing the 8 printers (the farm, or tabs), measured once every
        /// picture the view shows is on screen.
        private func shown(farm: Bool) throws -> BackgroundRun {
            let (app, log) = try startApp(farm: farm, arguments: [])
            defer { StartedProcesses.stop(app) }
            return try measureShown(app, phase: farm ? .farm : .tabs, log: log)
        }

        private func measureShown(_ app: Process, phase: BackgroundPhase, log: URL) throws -> BackgroundRun {
            let expected = phase == .farm ? printers : 1
            var pictures = 0
            guard waitUntil({
                pictures = desk.screen.grabAll().map { FarmTiles.find(in: $0).count } ?? 0
                return pictures >= expected || !app.isRunning
            }), app.isRunning else {
                throw BenchError("\(pictures) of \(expected) pictures on screen (running: \(app.isRunning)); its output ends:\n\(BenchRun.tail(of: log))")
            }
            Thread.sleep(forTimeInterval: plan.settle)
            var run = BackgroundRun(phase: phase)
            run.pictures = pictures
            return measure(run, roots: [app.processIdentifier], app: app, log: log)
        }

        /// `layerwatch --background` in a fresh process, measured once it polls every printer.
        private func startedInBackground() throws -> BackgroundRun {
            let (app, log) = try startApp(farm: true, arguments: ["--background"])
            defer { StartedProcesses.stop(app) }
            let before = status.requests
            guard waitUntil({ zip(status.requests, before).allSatisfy { $0.polls - $1.polls >= 2 } || !app.isRunning }), app.isRunning else {
                throw BenchError("not polling every printer (running: \(app.isRunning)); its output ends:\n\(BenchRun.tail(of: log))")
            }
            Thread.sleep(forTimeInterval: plan.settle)
            return measure(BackgroundRun(phase: .started), roots: [app.processIdentifier], app: app, log: log)
        }

        /// 8 of the app's camera sessions, each its own connection, with no view shown: what the
        /// background would cost if it held its cameras connected and decoded their keyframes only.
        private func keyframesOnly() throws -> BackgroundRun {
            let output = Pipe()
            let child = try StartedProcesses.start(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path,
                                                   ["scenario", "--url", server.url, "--mode", ViewMode.hidden.rawValue, "--sessions",
                                                    "\(printers)", "--warmup", "\(plan.settle)", "--seconds", "\(plan.seconds + 3)"],
                                                   stdout: output)
            defer { StartedProcesses.stop(child) }
            Thread.sleep(forTimeInterval: plan.settle + 1)
            var run = measure(BackgroundRun(phase: .keyframes), roots: [child.processIdentifier], app: nil, log: nil)
            let line = output.fileHandleForReading.readDataToEndOfFile().split(separator: 10).last
            run.decodedPerSecond = line.flatMap { try? JSONDecoder().decode(Measurement.self, from: Data($0)) }?.decodedPerSecond
            return run
        }

        /// `ffmpeg -f null`, one process per camera.
        private func decodeFloor() throws -> BackgroundRun {
            let processes = try urls.map { url in
                try StartedProcesses.start("/usr/bin/ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", "-rtsp_transport", "tcp",
                                                               "-i", url, "-an", "-f", "null", "-"])
            }
            defer { processes.reversed().forEach(StartedProcesses.stop) }
            Thread.sleep(forTimeInterval: plan.settle + 2)  // connect and reach the first keyframe
            return measure(BackgroundRun(phase: .ffmpeg), roots: processes.map(\.processIdentifier), app: nil, log: nil)
        }

        /// Layerwatch with the 8 printers saved, in the farm view or tabs, its window maximized.
        private func startApp(farm: Bool, arguments: [String]) throws -> (Process, URL) {
            try desk.home.write(cameras: urls, farm: farm, maximized: true, statusPorts: status.ports)
            let log = logs.appendingPathComponent("layerwatch-\(arguments.isEmpty ? (farm ? "farm" : "tabs") : "background")-\(UUID().uuidString.prefix(6)).log")
            guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw BenchError("cannot write \(log.path)") }
            let output = try FileHandle(forWritingTo: log)
            return (try StartedProcesses.start(desk.app, arguments, environment: desk.appEnvironment(.cairo), stdout: output, stderr: output), log)
        }

        /// The window: CPU of the trees and, beside them, of the camera server, the status servers,
        /// the X server, this bench and the rest of the machine; memory sampled once a second; the
        /// status servers' requests; then what is left connected and shown.
        private func measure(_ run: BackgroundRun, roots: [Int32], app: Process?, log: URL?) -> BackgroundRun {
            var run = run
            let trees = FarmProcesses(roots: roots)
            let window = CPUWindow(trees: trees, serverPIDs: serverPIDs, xvfb: desk.session.server.processIdentifier)
            let statusBefore = status.cpuSeconds, requestsBefore = status.requests
            run.memory = MemoryFigures.sampling(trees, seconds: plan.seconds)
            let perMinute = 60 / plan.seconds
            let statusCPU = (status.cpuSeconds - statusBefore) * perMinute
            run.statusCPU = statusCPU
            window.split(over: plan.seconds, beside: statusCPU, into: &run)
            let answered = zip(status.requests, requestsBefore)
            run.pollsPerMinute = Double(answered.map { $0.polls - $1.polls }.reduce(0, +)) * perMinute / Double(printers)
            run.otherRequestsPerMinute = Double(answered.map { $0.others - $1.others }.reduce(0, +)) * perMinute / Double(printers)
            run.cameraConnections = server.clients - 1  // less the keeper
            if let app {
                run.windows = windows(of: app.processIdentifier).count
                if !app.isRunning, let log {
                    run.failure = "exited during the window (status \(app.terminationStatus))"
                    FileHandle.standardError.write(Data("\(run.phase.label): \(run.failure!); its output ends:\n\(BenchRun.tail(of: log))\n".utf8))
                }
            }
            return run
        }

        private func waitUntil(_ condition: () -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(Plan.stateLimit)
            while Date() < deadline {
                if condition() { return true }
                Thread.sleep(forTimeInterval: 0.2)
            }
            return condition()
        }

        /// The visible top-level windows of process `pid` (xdotool's search), by X window id.
        func windows(of pid: Int32) -> [String] {
            xdotool(["search", "--onlyvisible", "--pid", "\(pid)", "--name", "Layerwatch"]).split(separator: "\n").map(String.init)
        }

        @discardableResult
        private func xdotool(_ arguments: [String]) -> String {
            let output = Pipe()
            guard let process = try? StartedProcesses.start("/usr/bin/xdotool", arguments, environment: ["DISPLAY": desk.session.display],
                                                            stdout: output) else { return "" }
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            StartedProcesses.stop(process)
            return text
        }
    }
}
