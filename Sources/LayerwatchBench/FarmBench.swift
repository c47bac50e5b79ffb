import Foundation
import StreamKit

/// `layerwatch-bench farm`: what the farm view costs. On the screen bench's private X server it runs
/// Layerwatch's real main window, maximized, in the farm view (`GSK_RENDERER=cairo`, what the app
/// picks without a GPU) with 1, 4, 8 and 16 printers on the camera-like 1080p30 RTSPS stream and 6
/// on the camera-like 720p30 one, each printer its own path (its own connection) of one shared
/// encoder, and beside each the peers of the same run: `ffmpeg -f null` decoding the same streams
/// (one process per stream: the decode floor) and one `mpv` window per stream where Layerwatch's
/// tiles were. For each: CPU of the whole process tree, peak and steady RSS, and the frames shown
/// a second on every tile, read from the framebuffer. Prints a table and writes the results file;
/// it asserts nothing.
enum FarmBench {
    static func run(arguments: [String]) {
        let flags = Flags(arguments: arguments)
        if let path = flags.string("--find") {  // a `--shots` file: the pictures the bench finds on it
            guard let shot = Bench.readPPM(URL(fileURLWithPath: path)) else { fatalError("cannot read \(path)") }
            FarmTiles.find(in: shot).forEach { print($0.x, $0.y, $0.width, $0.height) }
            return
        }
        let quick = flags.has("--quick")
        let plan = Plan(settle: flags.double("--settle", default: quick ? 4 : 5),
                        seconds: flags.double("--seconds", default: quick ? 10 : 20),
                        poll: flags.double("--poll-ms", default: 4) / 1000,
                        rounds: flags.int("--rounds", default: quick ? 1 : 2), quick: quick)
        BenchRun.command("farm") { temporary in
            let counts = try (flags.string("--printers") ?? "1,4,8,16").split(separator: ",").map { text -> Int in
                guard let count = Int(text.trimmingCharacters(in: .whitespaces)), (1...16).contains(count) else {
                    throw BenchError("--printers takes counts of 1 to 16, as 1,4,8,16")
                }
                return count
            }
            let peers = try (flags.string("--peers") ?? "ffmpeg,mpv").split(separator: ",").filter { !$0.isEmpty }.map { name -> FarmPlayer in
                guard let player = FarmPlayer(rawValue: String(name)), player.isPeer else { throw BenchError("--peers takes ffmpeg,mpv") }
                return player
            }
            let scenarios = Scenarios(fullHD: counts, hd: flags.has("--no-720p") ? [] : [6], peers: peers,
                                      tabs: flags.has("--no-tabs") ? nil : 8, headless: flags.has("--no-headless") ? nil : 8)
            let machine = Machine.current()
            let logs = flags.string("--logs").map { URL(fileURLWithPath: $0) } ?? temporary
            try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
            let started = Date()
            let (runs, headless) = try ScreenDesk.run(in: temporary, flags: flags) { desk in
                let bench = Bench(desk: desk, logs: logs, shots: flags.string("--shots").map { URL(fileURLWithPath: $0) }, plan: plan)
                return try bench.measure(scenarios, script: flags.string("--server") ?? "Tests/Servers/rtsp_server.py")
            }
            let report = FarmReport(machine: machine, plan: plan, runs: runs, headless: headless,
                                    minutes: Date().timeIntervalSince(started) / 60)
            try BenchRun.publish(table: report.table(), markdown: report.markdown(), to: flags.string("--results") ?? "bench/FARM.md")
        }
    }

    /// How a run is timed: `settle` s after every picture is on screen, then a `seconds` window in
    /// which the tiles' clocks are polled every `poll` s. Layerwatch's farm runs are repeated
    /// `rounds` times; the peers and the tabs run once (the first round).
    struct Plan {
        let settle: Double
        let seconds: Double
        let poll: Double
        let rounds: Int
        let quick: Bool
        static let firstPictureLimit = 30.0
    }

    /// What runs: Layerwatch's farm with each count of printers on the 1080p stream and on the
    /// 720p one, each followed by the peers; the same printers in tabs once (`tabs` printers); and
    /// `headless` sessions without a window (`layerwatch-bench scenario`: hidden, and converting to
    /// a 480 px mini view) on the 1080p stream, for where the CPU goes.
    struct Scenarios {
        let fullHD: [Int]
        let hd: [Int]
        let peers: [FarmPlayer]
        let tabs: Int?
        let headless: Int?
    }

    /// What every run needs: the desk, where logs (and shots) go.
    private struct Bench {
        let desk: ScreenDesk
        let logs: URL
        let shots: URL?
        let plan: Plan

        /// One server per stream, one after the other (one encoder on the cores at a time), each
        /// kept warm by an `ffmpeg -c copy` client as a camera always runs.
        func measure(_ scenarios: Scenarios, script: String) throws -> (runs: [FarmRun], headless: [Measurement]) {
            let screen = desk.screen
            var runs: [FarmRun] = [], headless: [Measurement] = []
            for stream in FarmStream.allCases {
                var counts = stream == .fullHD ? scenarios.fullHD : scenarios.hd
                guard !counts.isEmpty else { continue }
                counts = Array(Set(counts)).sorted()
                let paths = max(counts.max()!, stream == .fullHD ? scenarios.tabs ?? 0 : 0)
                BenchRun.progress("server: \(stream.label), \(StreamProfile.cameraLike.label), marks at the pictures' corners, \(paths) paths (display \(desk.session.display))")
                let server = try BenchServer(script: script, profile: .cameraLike, extra: ["--screen-marks", "--paths", "\(paths)"] + stream.serverArguments)
                defer { server.stop() }
                let urls = (1...paths).map { $0 == 1 ? server.url : "\(server.url)/\($0)" }
                let serverPIDs = FarmProcesses.children(matching: "rtsp_server.py")

                for round in 1...plan.rounds {
                    for count in counts {
                        var tiles: [ScreenRect] = []
                        for player in [FarmPlayer.layerwatch] + (round == 1 ? scenarios.peers : []) {
                            BenchRun.progress("round \(round) of \(plan.rounds): \(stream.label) × \(count), \(player.label)")
                            let run = try single(player, stream: stream, urls: Array(urls.prefix(count)), places: tiles,
                                                 screen: screen, serverPIDs: serverPIDs)
                            if player == .layerwatch, round == 1 {
                                tiles = run.pictures.count == count ? run.pictures : FarmLayout.pictures(count: count)
                            }
                            runs.append(run)
                        }
                    }
                    if stream == .fullHD, round == 1, let tabs = scenarios.tabs {
                        BenchRun.progress("round \(round) of \(plan.rounds): \(stream.label) × \(tabs), Layerwatch in tabs")
                        runs.append(try single(.layerwatchTabs, stream: stream, urls: Array(urls.prefix(tabs)), places: [],
                                               screen: screen, serverPIDs: serverPIDs))
                    }
                    if stream == .fullHD, round == 1, let sessions = scenarios.headless {
                        for mode in [ViewMode.hidden, .mini] {
                            BenchRun.progress("round \(round) of \(plan.rounds): \(stream.label) × \(sessions), sessions without a window, \(mode.label)")
                            if let measured = scenario(url: server.url, mode: mode, sessions: sessions) { headless.append(measured) }
                        }
                    }
                }
            }
            return (runs, headless)
        }

        /// `sessions` Layerwatch sessions with no window (the app's StreamKit path, each its own
        /// connection) in a child process of this executable; nil when it fails (the bench goes on).
        private func scenario(url: String, mode: ViewMode, sessions: Int) -> Measurement? {
            let process = Process(), pipe = Pipe()
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            process.arguments = ["scenario", "--url", url, "--mode", mode.rawValue, "--sessions", "\(sessions)",
                                 "--warmup", "\(plan.settle + 2)", "--seconds", "\(plan.seconds)"]
            process.standardOutput = pipe
            guard (try? process.run()) != nil else { return nil }
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0, let line = output.split(separator: 10).last else {
                FileHandle.standardError.write(Data("scenario \(mode.rawValue) × \(sessions) failed (status \(process.terminationStatus))\n".utf8))
                return nil
            }
            return try? JSONDecoder().decode(Measurement.self, from: Data(line))
        }

        /// One scenario: started, waited for until every picture is on screen, settled, measured, ended.
        private func single(_ player: FarmPlayer, stream: FarmStream, urls: [String], places: [ScreenRect],
                            screen: XScreen, serverPIDs: [Int32]) throws -> FarmRun {
            var run = FarmRun(player: player, stream: stream, printers: urls.count)
            let name = "\(player.rawValue)-\(stream.rawValue)-\(urls.count)-\(UUID().uuidString.prefix(6))"
            let log = logs.appendingPathComponent("\(name).log")
            guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw BenchError("cannot write \(log.path)") }
            let output = try FileHandle(forWritingTo: log)
            defer { try? output.close() }

            let started = DispatchTime.now().uptimeNanoseconds
            let processes = try start(player, urls: urls, places: places, output: output)
            defer { processes.reversed().forEach(StartedProcesses.stop) }
            let trees = FarmProcesses(roots: processes.map(\.processIdentifier))

            let expected = player.picturesShown(printers: urls.count)
            if expected > 0 {
                guard let shown = allPictures(expected, on: screen, of: processes) else {
                    let found = screen.grabAll().map { FarmTiles.find(in: $0).count } ?? 0
                    run.failure = processes.allSatisfy(\.isRunning) ? "\(found) of \(expected) pictures within \(Int(Plan.firstPictureLimit)) s"
                        : "exited (status \(processes.first { !$0.isRunning }!.terminationStatus))"
                    FileHandle.standardError.write(Data("\(name): \(run.failure!); its output ends:\n\(BenchRun.tail(of: log))\n".utf8))
                    if !processes.allSatisfy(\.isRunning) { return run }
                    run.allShownSeconds = nil
                    Thread.sleep(forTimeInterval: plan.settle)
                    return measureWindow(run, screen: screen, trees: trees, serverPIDs: serverPIDs, shot: name)
                }
                run.allShownSeconds = Double(shown - started) / 1e9
            } else {
                Thread.sleep(forTimeInterval: 2)  // ffmpeg: connect and reach the first keyframe
            }
            Thread.sleep(forTimeInterval: plan.settle)
            let measured = measureWindow(run, screen: screen, trees: trees, serverPIDs: serverPIDs, shot: name)
            if let lost = processes.first(where: { !$0.isRunning }) {
                var failed = measured
                failed.failure = "exited during the window (status \(lost.terminationStatus))"
                FileHandle.standardError.write(Data("\(name): \(failed.failure!); its output ends:\n\(BenchRun.tail(of: log))\n".utf8))
                return failed
            }
            return measured
        }

        /// The window: CPU of the trees (and of the server, Xvfb and this bench beside them), memory
        /// sampled once a second, every picture's clock polled.
        private func measureWindow(_ run: FarmRun, screen: XScreen, trees: FarmProcesses, serverPIDs: [Int32], shot name: String) -> FarmRun {
            var run = run
            let expected = run.player.picturesShown(printers: run.printers)
            if expected > 0 {
                // A grab can catch a picture half drawn: a few tries for them all.
                var last: Screenshot?
                for _ in 0..<20 {
                    guard let shot = screen.grabAll() else { continue }
                    last = shot
                    let found = FarmTiles.find(in: shot)
                    if found.count > run.pictures.count { run.pictures = found }
                    if found.count >= expected { break }
                    usleep(50_000)
                }
                if let shots, let last { try? Self.writePPM(last, to: shots.appendingPathComponent("\(name).ppm")) }
            }
            let main = run.player.isPeer ? nil : trees.roots.first
            let mainBefore = main.flatMap { ProcFS.cpuSeconds(pid: $0, thread: $0) }  // the GTK main loop
            let window = CPUWindow(trees: trees, serverPIDs: serverPIDs, xvfb: desk.session.server.processIdentifier)
            var resident: [Double] = []
            let sample = { if let rss = trees.megabytes("VmRSS") { resident.append(rss) } }
            sample()
            if run.pictures.isEmpty {
                for _ in 0..<Int(plan.seconds) {
                    Thread.sleep(forTimeInterval: 1)
                    sample()
                }
                Thread.sleep(forTimeInterval: plan.seconds - Double(Int(plan.seconds)))
            } else {
                let tiles = FarmClocks(screen: screen, pictures: run.pictures).record(seconds: plan.seconds, every: plan.poll, tick: sample)
                run.tileFramesPerSecond = tiles.map { Double($0.frames) / plan.seconds }
                run.ages = tiles.flatMap(\.ages)
                run.rejected = tiles.map(\.rejected).reduce(0, +)
            }
            let seconds = plan.seconds
            window.split(over: seconds, into: &run)
            if let main, let mainBefore, let mainAfter = ProcFS.cpuSeconds(pid: main, thread: main) {
                run.mainThreadCPU = (mainAfter - mainBefore) / seconds * 60
            }
            run.peakRSS = trees.megabytes("VmHWM")
            run.steadyRSS = Percentiles(resident).median
            return run
        }

        private func start(_ player: FarmPlayer, urls: [String], places: [ScreenRect], output: FileHandle) throws -> [Process] {
            switch player {
            case .layerwatch, .layerwatchTabs:
                try desk.home.write(cameras: urls, farm: player == .layerwatch, maximized: true)
                return [try StartedProcesses.start(desk.app, [], environment: desk.appEnvironment(.cairo), stdout: output, stderr: output)]
            case .ffmpeg:
                return try urls.map { url in
                    try StartedProcesses.start("/usr/bin/ffmpeg", ["-hide_banner", "-nostdin", "-loglevel", "error", "-rtsp_transport", "tcp",
                                                                   "-i", url, "-an", "-f", "null", "-"], stdout: output, stderr: output)
                }
            case .mpv:
                return try zip(urls, places).map { url, place in
                    let geometry = "\(place.width)x\(place.height)+\(place.x)+\(place.y)"
                    return try StartedProcesses.start("/usr/bin/mpv", ["--no-config", "--profile=low-latency", "--untimed", "--vo=x11",
                                                                       "--no-border", "--geometry=\(geometry)", "--no-osc",
                                                                       "--no-input-default-bindings", "--really-quiet", url],
                                                      environment: desk.session.environment, stdout: output, stderr: output)
                }
            }
        }

        /// When (uptime ns) `count` pictures with readable, fresh clocks were on screen at once.
        private func allPictures(_ count: Int, on screen: XScreen, of processes: [Process]) -> UInt64? {
            let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(Plan.firstPictureLimit * 1e9)
            while processes.allSatisfy(\.isRunning), DispatchTime.now().uptimeNanoseconds < deadline {
                let shot = screen.grabAll(), grabbed = DispatchTime.now().uptimeNanoseconds
                if let shot {
                    let pictures = FarmTiles.find(in: shot)
                    if pictures.count >= count, FarmClocks.readable(pictures, on: shot, screen: screen) >= count { return grabbed }
                }
                usleep(20_000)
            }
            return nil
        }

        /// A screenshot `writePPM` wrote.
        static func readPPM(_ url: URL) -> Screenshot? {
            guard let data = try? Data(contentsOf: url) else { return nil }
            let bytes = [UInt8](data)
            var fields: [Int] = [], index = 2, number = ""
            while fields.count < 3, index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte >= 48, byte <= 57 { number.append(Character(UnicodeScalar(byte))) } else if !number.isEmpty {
                    fields.append(Int(number)!)
                    number = ""
                }
            }
            guard fields.count == 3, bytes.count - index >= fields[0] * fields[1] * 3 else { return nil }
            var pixels = [UInt8](repeating: 0, count: fields[0] * fields[1] * 4)
            for pixel in 0..<(fields[0] * fields[1]) {
                pixels[pixel * 4 + 2] = bytes[index + pixel * 3]
                pixels[pixel * 4 + 1] = bytes[index + pixel * 3 + 1]
                pixels[pixel * 4] = bytes[index + pixel * 3 + 2]
            }
            return Screenshot(rect: ScreenRect(x: 0, y: 0, width: fields[0], height: fields[1]), pixels: pixels)
        }

        /// The screenshot as a binary PPM (`--shots`, to see what the bench saw).
        static func writePPM(_ shot: Screenshot, to url: URL) throws {
            var data = Data("P6\n\(shot.rect.width) \(shot.rect.height)\n255\n".utf8)
            data.reserveCapacity(data.count + shot.pixels.count / 4 * 3)
            var rgb = [UInt8](repeating: 0, count: shot.pixels.count / 4 * 3)
            for index in 0..<(shot.pixels.count / 4) {
                rgb[index * 3] = shot.pixels[index * 4 + 2]
                rgb[index * 3 + 1] = shot.pixels[index * 4 + 1]
                rgb[index * 3 + 2] = shot.pixels[index * 4]
            }
            data.append(contentsOf: rgb)
            try data.write(to: url)
        }
    }
}

/// The streams of the farm bench: the two targets name these sizes, camera-like
/// (x264 superfast with sensor noise), 30 fps.
enum FarmStream: String, CaseIterable {
    case fullHD = "1080p"
    case hd = "720p"

    var size: (width: Int, height: Int) { self == .fullHD ? (1920, 1080) : (1280, 720) }
    var label: String { "\(size.width)×\(size.height) \(BenchServer.fps) fps" }
    /// `BenchServer` passes 1920×1080 first; a later `--width`/`--height` overrides it.
    var serverArguments: [String] { self == .fullHD ? [] : ["--width", "\(size.width)", "--height", "\(size.height)"] }
}

/// Who shows (or decodes) the streams in a farm run.
enum FarmPlayer: String, Hashable {
    /// Layerwatch's window in the farm view: one tile per printer.
    case layerwatch
    /// The same printers in tabs: the first tab shown (at the window's size), the others hidden.
    case layerwatchTabs = "layerwatch-tabs"
    /// `ffmpeg -f null`, one process per stream: the decode floor.
    case ffmpeg
    /// One `mpv` window per stream, each where Layerwatch's tile picture was.
    case mpv

    var isPeer: Bool { self == .ffmpeg || self == .mpv }

    var label: String {
        switch self {
        case .layerwatch: return "Layerwatch farm"
        case .layerwatchTabs: return "Layerwatch tabs"
        case .ffmpeg: return "ffmpeg -f null"
        case .mpv: return "mpv windows"
        }
    }

    /// How many pictures it puts on screen.
    func picturesShown(printers: Int) -> Int {
        switch self {
        case .layerwatch, .mpv: return printers
        case .layerwatchTabs: return 1
        case .ffmpeg: return 0
        }
    }
}

/// One farm scenario's figures. CPU in seconds a minute over the window; memory in MiB.
struct FarmRun: CPUSplitFigures {
    let player: FarmPlayer
    let stream: FarmStream
    let printers: Int
    /// The pictures found on screen after settling (each tile's, or the shown tab's).
    var pictures: [ScreenRect] = []
    /// Exec → every expected picture on screen with a readable clock.
    var allShownSeconds: Double?
    var cpu: Double?
    /// Layerwatch's main thread (GTK: layout, the paintables, drawing with cairo); the rest of its
    /// CPU is the sessions' threads (network, TLS, demuxing, decoding, conversion to the view's size).
    var mainThreadCPU: Double?
    var serverCPU: Double?
    var xvfbCPU: Double?
    var benchCPU: Double?
    /// The rest of the machine's busy CPU over the window: the keeper client, the kernel's own
    /// work, and anything else that ran on the machine then (another build or test run).
    var otherCPU: Double?
    var peakRSS: Double?
    var steadyRSS: Double?
    /// Frames shown a second on each picture found.
    var tileFramesPerSecond: [Double] = []
    var ages: [Double] = []
    var rejected = 0
    var failure: String?
}

/// Where the farm's tile pictures sit on the bench's screen when they could not be measured (the
/// mpv peers are placed there): the `TileGrid` layout of a maximized window, 12 px margins and
/// spacing, tiles of at least 320 px, up to six columns, under a 47 px header bar; rows as tall as
/// a picture and its caption (about 62 px).
enum FarmLayout {
    static func pictures(count: Int) -> [ScreenRect] {
        let width = XDisplaySession.width - 24
        let columns = max(1, min(6, (width + 12) / 332, count))
        let tileWidth = (width - 12 * (columns - 1)) / columns
        let height = Int((Double(tileWidth) * 9 / 16).rounded())
        return (0..<count).map { index in
            ScreenRect(x: 12 + (index % columns) * (tileWidth + 12), y: 47 + 12 + (index / columns) * (height + 62 + 12),
                       width: tileWidth, height: height)
        }
    }
}
