import Foundation
import StreamKit

/// `layerwatch-bench mixed-farm`: what `layerwatch --background` costs watching a mixed farm of
/// eight printers (issue 37: two each of Elegoo, Flashforge, PrusaLink and Bambu, all printing,
/// each its loopback fake), against the target of 0.05 core and 40 MiB. On the screen bench's
/// private X server and session bus, with a throwaway HOME whose `printers.json` holds the eight:
/// starts the app in the background, waits until every fake sees it watch (a websocket or MQTT
/// session asking for status, or HTTP polls answered), lets it settle, then measures a window: CPU
/// of the app's process tree and of each of its threads, VmRSS median and peak, RssAnon, the
/// fakes' CPU beside it, what each fake saw (polls a minute, sessions open, camera streams) and
/// the app's own TCP connections. Prints a table and writes the results file; it asserts nothing.
enum MixedFarmBench {
    /// The target for the whole background: cores (CPU s/min ÷ 60) and MiB of VmRSS.
    static let targetCores = 0.05
    static let targetMiB = 40.0

    static func run(arguments: [String]) {
        let flags = Flags(arguments: arguments)
        let quick = flags.has("--quick")
        let plan = BackgroundBench.Plan(settle: flags.double("--settle", default: quick ? 5 : 15), seconds: flags.double("--seconds", default: quick ? 20 : 60),
                                        quick: quick)
        BenchRun.command("mixed-farm") { temporary in
            let machine = Machine.current(), started = Date()
            let logs = flags.string("--logs").map { URL(fileURLWithPath: $0) } ?? temporary
            try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
            try ScreenDesk.run(in: temporary, flags: flags) { desk in
                BenchRun.progress("8 loopback printers, printing: 2 Elegoo, 2 Flashforge (and their cameras), 2 PrusaLink, 2 Bambu (mosquitto)")
                let farm = try MixedFarmPrinters()
                defer { farm.stop() }
                try desk.home.write(printers: farm.printers, farm: true)
                BenchRun.progress("layerwatch --background, started fresh")
                var run: MixedFarmRun
                do { run = try measure(farm: farm, desk: desk, logs: logs, plan: plan) } catch {
                    FileHandle.standardError.write(Data("mixed farm: \(error)\n".utf8))
                    run = MixedFarmRun()
                    run.failure = "\(error)"
                }
                let report = MixedFarmReport(machine: machine, plan: plan, run: run, minutes: Date().timeIntervalSince(started) / 60)
                try BenchRun.publish(table: report.table(), markdown: report.markdown(), to: flags.string("--results") ?? "bench/MIXED-FARM.md")
            }
        }
    }

    /// Starts the app, waits until every printer is watched, settles, and measures the window.
    private static func measure(farm: MixedFarmPrinters, desk: ScreenDesk, logs: URL, plan: BackgroundBench.Plan) throws -> MixedFarmRun {
        let log = logs.appendingPathComponent("layerwatch-mixed-farm-\(UUID().uuidString.prefix(6)).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw BenchError("cannot write \(log.path)") }
        let output = try FileHandle(forWritingTo: log)
        let startedAt = Date()
        let app = try StartedProcesses.start(desk.app, ["--background"], environment: desk.appEnvironment(.cairo), stdout: output, stderr: output)
        defer { StartedProcesses.stop(app) }
        let deadline = Date().addingTimeInterval(2 * BackgroundBench.Plan.stateLimit)
        while Date() < deadline, app.isRunning, !farm.isLive { Thread.sleep(forTimeInterval: 0.2) }
        guard app.isRunning, farm.isLive else {
            let waiting = farm.members.filter { !$0.isLive }.map(\.printer.name).joined(separator: ", ")
            throw BenchError("not watching every printer (running: \(app.isRunning); not live: \(waiting)); its output ends:\n\(BenchRun.tail(of: log))")
        }
        var run = MixedFarmRun()
        run.liveSeconds = Date().timeIntervalSince(startedAt)
        Thread.sleep(forTimeInterval: plan.settle)

        let pid = app.processIdentifier
        let trees = FarmProcesses(roots: [pid])
        let window = CPUWindow(trees: trees, serverPIDs: farm.pids, xvfb: desk.session.server.processIdentifier)
        let threadsBefore = ProcFS.threadCPUSecondsByName(pid: pid)
        let before = farm.members.map { (counts: $0.fake.counts, cpu: $0.cpuSeconds) }
        run.memory = MemoryFigures.sampling(trees, seconds: plan.seconds)
        let perMinute = 60 / plan.seconds
        let fakesCPU = zip(farm.members, before).map { $0.cpuSeconds - $1.cpu }
        window.split(over: plan.seconds, into: &run)
        run.threads = ProcFS.threadCPUSecondsByName(pid: pid).map { name, seconds in (name, (seconds - (threadsBefore[name] ?? 0)) * perMinute) }
            .sorted { $0.1 > $1.1 }
        run.threadCount = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? nil
        let sockets = AppSockets.established(pids: trees.pids)
        run.connections = sockets.count
        run.families = MixedFamily.allCases.map { family in
            let indices = farm.members.indices.filter { farm.members[$0].family == family }
            let members = indices.map { farm.members[$0] }
            func delta(_ label: String) -> Double {
                Double(indices.map { (farm.members[$0].fake.counts[label] ?? 0) - (before[$0].counts[label] ?? 0) }.reduce(0, +)) * perMinute / Double(indices.count)
            }
            return MixedFamilyFigures(
                family: family, fakesCPU: indices.map { fakesCPU[$0] }.reduce(0, +) * perMinute,
                pollsPerMinute: delta(family.pollLabel), otherPerMinute: delta("other") + delta("pushall"), refusedPerMinute: delta("refused"),
                sessionsOpen: family == .elegoo || family == .bambu ? members.map { $0.open($0.fake.counts) }.reduce(0, +) : nil,
                appConnections: members.map { member in sockets.filter { member.isStatusPeer($0) }.count }.reduce(0, +),
                cameraOpenings: members.map(\.cameraOpenings).reduce(0, +),
                videoCommands: members.map { $0.fake.counts["video-on", default: 0] }.reduce(0, +),
                cameraSockets: members.map { member in sockets.filter { member.isCameraPeer($0) }.count }.reduce(0, +))
        }
        if !app.isRunning { run.failure = "exited during the window (status \(app.terminationStatus)): \(BenchRun.tail(of: log))" }
        return run
    }
}

extension MixedFarmPrinters.Member {
    /// A connection of the app to this printer's status side.
    func isStatusPeer(_ peer: AppSockets.Peer) -> Bool {
        peer.port == fake.port && (family != .elegoo || peer.host == printer.host)
    }

    /// A connection of the app to this printer's camera: the Flashforge camera fake, or the
    /// printer's own camera where its family says it is (Elegoo's MJPEG port, a Bambu X1's RTSPS).
    func isCameraPeer(_ peer: AppSockets.Peer) -> Bool {
        if let camera { return peer.port == camera.port }
        guard let own = printer.cameras.first, let url = Self.url(of: try? printer.source(of: own)), let port = url.port else { return false }
        return peer.host == url.host && peer.port == port
    }

    private static func url(of source: StreamSource?) -> URL? {
        switch source {
        case .rtsp(let url)?, .http(let url)?: return url
        default: return nil
        }
    }
}

/// The mixed farm's figures over its window. CPU in seconds a minute; memory in MiB.
struct MixedFarmRun: CPUSplitFigures {
    var cpu: Double?
    /// The eight fakes' CPU (mosquitto brokers, the Flashforge cameras included) over the window.
    var serverCPU: Double?
    var xvfbCPU: Double?
    var benchCPU: Double?
    var otherCPU: Double?
    var memory = MemoryFigures()
    /// Seconds from the app's start until every fake saw it watch.
    var liveSeconds: Double?
    /// The app's threads by name, CPU s/min over the window, busiest first.
    var threads: [(name: String, cpu: Double)] = []
    var threadCount: Int?
    /// The app's established TCP connections at the window's end.
    var connections: Int?
    var families: [MixedFamilyFigures] = []
    var failure: String?
}

/// What one family's two fakes saw over the window, per printer a minute, and the connections.
struct MixedFamilyFigures {
    let family: MixedFamily
    let fakesCPU: Double
    let pollsPerMinute: Double
    let otherPerMinute: Double
    let refusedPerMinute: Double
    /// Websocket or MQTT sessions of the app open at the window's end (both printers); nil for HTTP.
    let sessionsOpen: Int?
    /// The app's TCP connections to the two printers' status ports at the window's end.
    let appConnections: Int
    /// Camera streams the fakes saw opened since they started (the Elegoo video command included).
    let cameraOpenings: Int
    /// Elegoo's Cmd 386 (video on) the fakes got since they started: sent at connect, opens no stream.
    let videoCommands: Int
    /// The app's TCP connections to the two printers' cameras at the window's end.
    let cameraSockets: Int
}
