import Foundation

/// `layerwatch-bench zoom`: what zooming costs on screen. On the screen bench's private X server,
/// Layerwatch's window (`GSK_RENDERER=cairo`) shows the camera-like 1080p30 RTSPS stream fitted,
/// then zoomed 2×, 4× and 8× with the `+` key, as a user zooms; beside it in the same run, mpv at the
/// same picture size and place zoomed as far (`--video-zoom`), and `ffmpeg -f null` (the decode
/// floor); and Layerwatch showing the camera mounted turned half and a quarter way round (GTK
/// turns the picture while drawing it), against upright. For each: CPU of the process tree, and the frames shown a second,
/// counted as changes of rows across the picture on the framebuffer (the stream's noise changes
/// every frame).
/// Prints a table and writes the results file; it asserts nothing.
enum ZoomBench {
    /// The zooms measured; each is two `+` steps (√2 each) beyond the one before.
    static let zooms = [1, 2, 4, 8]

    static func run(arguments: [String]) {
        let flags = Flags(arguments: arguments)
        let quick = flags.has("--quick")
        let rounds = flags.int("--rounds", default: quick ? 1 : 2), seconds = flags.double("--seconds", default: quick ? 10 : 20)
        BenchRun.command("zoom") { directory in
            let machine = Machine.current()
            let runs = try ScreenDesk.run(in: directory, flags: flags) { desk in
                try Bench(desk: desk, seconds: seconds).measure(rounds: rounds, script: flags.string("--server") ?? "Tests/Servers/rtsp_server.py")
            }
            let report = ZoomReport(machine: machine, rounds: rounds, seconds: seconds, quick: quick, runs: runs)
            try BenchRun.publish(table: report.table(), markdown: report.markdown(), to: flags.string("--results") ?? "bench/ZOOM.md")
        }
    }

    /// One measured window: who, how far zoomed, CPU (s/min) and frames shown a second.
    struct Run {
        let player: String
        let zoom: Int
        let cpu: Double?
        let framesPerSecond: Double?
    }

    private struct Bench {
        let desk: ScreenDesk
        let seconds: Double
        let settle = 2.0

        func measure(rounds: Int, script: String) throws -> [Run] {
            BenchRun.progress("server: \(StreamProfile.cameraLike.label), marks at the picture's corners")
            let server = try BenchServer(script: script, profile: .cameraLike, extra: ["--screen-marks"])
            defer { server.stop() }
            var runs: [Run] = []
            for round in 1...rounds {
                BenchRun.progress("round \(round) of \(rounds): Layerwatch, fitted then zoomed with +")
                let (layerwatch, picture) = try self.layerwatch(url: server.url)
                runs += layerwatch
                for rotation in [180, 90] {
                    BenchRun.progress("round \(round) of \(rounds): Layerwatch, the camera mounted turned \(rotation)°")
                    runs.append(try turned(rotation, url: server.url, upright: picture))
                }
                for zoom in ZoomBench.zooms {
                    BenchRun.progress("round \(round) of \(rounds): mpv at \(zoom)×")
                    runs.append(try mpv(url: server.url, zoom: zoom, picture: picture))
                }
                BenchRun.progress("round \(round) of \(rounds): ffmpeg -f null")
                let floor = try FFmpegClient(url: server.url, tuned: false).measureDecodeOnly(warmup: settle, seconds: seconds)
                runs.append(Run(player: "ffmpeg -f null", zoom: 1, cpu: floor.cpuSecondsPerMinutePerStream, framesPerSecond: nil))
            }
            return runs
        }

        /// Layerwatch with the stream on its command line, measured at every zoom in one process.
        private func layerwatch(url: String) throws -> ([Run], ScreenRect) {
            try desk.home.write()
            let process = try StartedProcesses.start(desk.app, [url], environment: desk.appEnvironment(.cairo))
            defer { StartedProcesses.stop(process) }
            guard let picture = waitForPicture(of: process) else { throw BenchError("Layerwatch showed no picture within 30 s") }
            var runs: [Run] = []
            for zoom in ZoomBench.zooms {
                if zoom > 1 { try press(["plus", "plus"]) }
                Thread.sleep(forTimeInterval: settle)
                let measured = window(of: process, at: picture)
                runs.append(Run(player: "Layerwatch", zoom: zoom, cpu: measured.cpu, framesPerSecond: measured.framesPerSecond))
            }
            return (runs, picture)
        }

        /// Layerwatch with the stream saved as a printer mounted turned `rotation` degrees clockwise,
        /// fitted: turned half way, the picture is where the upright one was; a quarter, it stands in
        /// the middle of it, as tall.
        private func turned(_ rotation: Int, url: String, upright: ScreenRect) throws -> Run {
            try desk.home.write(cameras: [url], rotation: rotation)
            let process = try StartedProcesses.start(desk.app, [], environment: desk.appEnvironment(.cairo))
            defer { StartedProcesses.stop(process) }
            let width = rotation == 90 ? upright.height * 9 / 16 : upright.width
            let picture = ScreenRect(x: upright.x + (upright.width - width) / 2, y: upright.y, width: width, height: upright.height)
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, process.isRunning, changesPerSecond(at: picture, seconds: 0.3) < 5 {}
            Thread.sleep(forTimeInterval: settle)
            let measured = window(of: process, at: picture)
            return Run(player: "Layerwatch turned \(rotation)°", zoom: 1, cpu: measured.cpu, framesPerSecond: measured.framesPerSecond)
        }

        /// mpv zoomed `zoom` times about the middle, its window where Layerwatch's picture was.
        private func mpv(url: String, zoom: Int, picture: ScreenRect) throws -> Run {
            let geometry = "\(picture.width)x\(picture.height)+\(picture.x)+\(picture.y)"
            let process = try StartedProcesses.start("/usr/bin/mpv", ["--no-config", "--profile=low-latency", "--untimed", "--vo=x11", "--no-border",
                                                                      "--geometry=\(geometry)", "--no-osc", "--no-input-default-bindings",
                                                                      "--video-zoom=\(log2(Double(zoom)))", url],
                                                     environment: desk.session.environment)
            defer { StartedProcesses.stop(process) }
            // Zoomed, its marks are out of sight: wait for the middle to start changing instead.
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, process.isRunning, changesPerSecond(at: picture, seconds: 0.3) < 5 {}
            Thread.sleep(forTimeInterval: settle)
            let measured = window(of: process, at: picture)
            return Run(player: "mpv", zoom: zoom, cpu: measured.cpu, framesPerSecond: measured.framesPerSecond)
        }

        /// CPU of `process`'s tree and the picture's frames a second over one window.
        private func window(of process: Process, at picture: ScreenRect) -> (cpu: Double, framesPerSecond: Double) {
            let before = ProcFS.treeCPUSeconds(root: process.processIdentifier)
            let frames = changesPerSecond(at: picture, seconds: seconds)
            return ((ProcFS.treeCPUSeconds(root: process.processIdentifier) - before) / seconds * 60, frames)
        }

        /// How often the picture changed a second: four rows across its width (at 30, 45, 60 and 75 %
        /// of its height), grabbed every 4 ms, any of them different from its last grab. Rows span
        /// many macroblocks, so a frame whose noise the encoder skipped in a few still counts.
        private func changesPerSecond(at picture: ScreenRect, seconds: Double) -> Double {
            let rows = [0.3, 0.45, 0.6, 0.75].map { ScreenRect(x: picture.x, y: picture.y + Int(Double(picture.height) * $0), width: picture.width, height: 1) }
            let end = Date().addingTimeInterval(seconds)
            var last: [[UInt8]]?, changes = 0
            while Date() < end {
                let shots = rows.compactMap { desk.screen.grab($0)?.pixels }
                if shots.count == rows.count {
                    if let last, last != shots { changes += 1 }
                    last = shots
                }
                usleep(4000)
            }
            return Double(changes) / seconds
        }

        /// The picture's rectangle once its corner marks are on screen.
        private func waitForPicture(of process: Process) -> ScreenRect? {
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning, Date() < deadline {
                if let shot = desk.screen.grabAll(), let picture = ScreenMarks.find(in: shot) { return picture }
                usleep(50_000)
            }
            return nil
        }

        /// Keys typed into Layerwatch's main window, as a user types them.
        private func press(_ keys: [String]) throws {
            let xdotool = try StartedProcesses.start("/usr/bin/xdotool", ["search", "--sync", "--limit", "1", "--name", " — Layerwatch$",
                                                                          "windowactivate", "--sync", "%@", "key", "--delay", "100"] + keys,
                                                     environment: desk.session.environment)
            xdotool.waitUntilExit()
            guard xdotool.terminationStatus == 0 else { throw BenchError("xdotool could not type \(keys)") }
        }
    }
}
