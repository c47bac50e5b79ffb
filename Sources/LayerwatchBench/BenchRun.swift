import Foundation
import StreamKit

/// The whole benchmark in one run, one server at a time: on the ultrafast stream the first-frame
/// trials, the `ffmpeg` baselines and every Layerwatch scenario; on the same stream with an IDR on
/// PLAY the first-frame trials again; on the camera-like stream the CPU ratios. Layerwatch
/// scenarios run in child processes. Then the table and the results file.
enum BenchRun {
    static func run(arguments: [String]) {
        let flags = Flags(arguments: arguments)
        let quick = flags.has("--quick")
        let plan = Plan(warmup: quick ? 4 : 5, seconds: quick ? 8 : 20, trials: quick ? 3 : 6, cpuRounds: quick ? 3 : 5, quick: quick)
        let script = flags.string("--server") ?? "Tests/Servers/rtsp_server.py"
        do {
            let machine = Machine.current()
            var firstFrames: [Measurement] = [], baselines: [Measurement] = [], scenarios: [Measurement] = []

            try withServer(script: script, profile: .ultrafast) { server, defaults, tuned in
                firstFrames += try firstFrameTrials(server: server, defaults: defaults, tuned: tuned, plan: plan)
                for client in [defaults, tuned] {
                    progress("\(client.label): -f null, then rawvideo pipe")
                    baselines.append(try client.measureDecodeOnly(warmup: plan.warmup, seconds: plan.seconds).on(server))
                    baselines.append(try client.measureLatency(warmup: plan.warmup, seconds: plan.seconds).on(server))
                }
                for mode in ViewMode.scaling {
                    for streams in [1, 4, 8] {
                        scenarios.append(try scenario(server, mode: mode, streams: streams, plan: plan))
                    }
                }
                scenarios.append(try scenario(server, mode: .window, streams: 1, plan: plan))
                scenarios.append(try scenario(server, mode: .full, streams: 1, plan: plan, extra: ["--threads", "1"]))
                scenarios.append(try scenario(server, mode: .full, streams: 1, plan: plan, extra: ["--copy-textures"]))
                scenarios.append(try scenario(server, mode: .full, streams: 4, plan: plan, extra: ["--copy-textures"]))
            }

            try withServer(script: script, profile: .keyframeOnPlay) { server, defaults, tuned in
                firstFrames += try firstFrameTrials(server: server, defaults: defaults, tuned: tuned, plan: plan)
            }

            try withServer(script: script, profile: .cameraLike) { server, defaults, _ in
                // CPU shares two cores with the server's encoder: many short runs in interleaved rounds
                // (the spread is between runs more than within one); each row is the median run.
                let short = Plan(warmup: 4, seconds: min(plan.seconds, 12), trials: plan.trials,
                                 cpuRounds: plan.cpuRounds, quick: plan.quick)
                var rounds: [[Measurement]] = []
                for round in 1...plan.cpuRounds {
                    progress("\(defaults.label) -f null (round \(round) of \(plan.cpuRounds))")
                    var runs = [try defaults.measureDecodeOnly(warmup: short.warmup, seconds: short.seconds).on(server)]
                    for (mode, extra) in [(ViewMode.full, []), (.mini, []), (.mini, ["--keep-deblocking"]), (.hidden, [])] {
                        runs.append(try scenario(server, mode: mode, streams: 1, plan: short, extra: extra))
                    }
                    rounds.append(runs)
                }
                let medians = rounds[0].indices.map { index in Measurement.medianByCPU(rounds.map { $0[index] }) }
                baselines.append(medians[0])
                scenarios += medians.dropFirst()
            }

            let report = Report(machine: machine, plan: plan, firstFrames: firstFrames, baselines: baselines, scenarios: scenarios)
            print(report.table())
            print(report.targets())
            let path = flags.string("--results") ?? "bench/RESULTS.md"
            try report.markdown().write(toFile: path, atomically: true, encoding: .utf8)
            progress("wrote \(path)")
        } catch {
            FileHandle.standardError.write(Data("layerwatch-bench: \(error)\n".utf8))
            exit(1)
        }
    }

    /// Durations of one run.
    struct Plan {
        let warmup: Double
        let seconds: Double
        let trials: Int
        /// Rounds of the CPU-ratio runs on the camera-like stream (odd: the median is one run).
        let cpuRounds: Int
        let quick: Bool
    }

    /// Starts a server for `profile` (kept warm: see `BenchServer`), runs `body`, stops it.
    private static func withServer(script: String, profile: StreamProfile,
                                   _ body: (BenchServer, FFmpegClient, FFmpegClient) throws -> Void) throws {
        progress("server: \(profile.label)")
        let server = try BenchServer(script: script, profile: profile)
        defer { server.stop() }
        let defaults = FFmpegClient(url: server.url, tuned: false), tuned = FFmpegClient(url: server.url, tuned: true)
        try body(server, defaults, tuned)
    }

    /// Layerwatch, ffmpeg defaults and ffmpeg tuned, `plan.trials` times each, interleaved.
    private static func firstFrameTrials(server: BenchServer, defaults: FFmpegClient, tuned: FFmpegClient,
                                         plan: Plan) throws -> [Measurement] {
        progress("first-frame trials (\(plan.trials) each, \(server.profile.label))")
        var trials: [[Measurement]] = [[], [], []]
        for _ in 0..<plan.trials {
            trials[0].append(try FirstFrameTrial.run(url: server.url))
            trials[1].append(try defaults.measureLatency(warmup: 0, seconds: 0))
            trials[2].append(try tuned.measureLatency(warmup: 0, seconds: 0))
        }
        return trials.map { summarize(trials: $0).on(server) }
    }

    /// Median and worst time to first frame, median first-frame age and open time, over repeated trials.
    private static func summarize(trials: [Measurement]) -> Measurement {
        var result = Measurement(client: trials[0].client, view: "first frame ×\(trials.count)", streams: 1)
        let seconds = Percentiles(trials.compactMap(\.firstFrameSeconds))
        result.firstFrameSeconds = seconds.median
        result.firstFrameWorstSeconds = seconds.value(100)
        result.firstFrameAgeMilliseconds = Percentiles(trials.compactMap(\.firstFrameAgeMilliseconds)).median
        result.openSeconds = Percentiles(trials.compactMap(\.openSeconds)).median
        return result
    }

    /// Runs one Layerwatch scenario in a child process of this executable and reads its JSON line.
    private static func scenario(_ server: BenchServer, mode: ViewMode, streams: Int, plan: Plan,
                                 extra: [String] = []) throws -> Measurement {
        progress("Layerwatch \(mode.label) × \(streams) \(extra.joined(separator: " ")) (\(server.profile.label))")
        let process = Process(), pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["scenario", "--url", server.url, "--mode", mode.rawValue, "--sessions", "\(streams)",
                             "--warmup", "\(plan.warmup)", "--seconds", "\(plan.seconds)"] + extra
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let line = output.split(separator: 10).last else {
            throw BenchError("scenario \(mode.rawValue) × \(streams) failed (status \(process.terminationStatus))")
        }
        return try JSONDecoder().decode(Measurement.self, from: Data(line)).on(server)
    }

    static func progress(_ text: String) {
        FileHandle.standardError.write(Data("· \(text)\n".utf8))
    }

    /// The frame of the subcommand `name` (`screen`, `farm`, `zoom`, `record`): the processes it
    /// starts end with it, on Ctrl-C too; `body` gets a scratch folder removed at exit; an error is
    /// printed as "layerwatch-bench NAME: …" and ends the process with status 1.
    static func command(_ name: String, _ body: (_ scratch: URL) throws -> Void) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("layerwatch-\(name)-\(getpid())")
        StartedProcesses.stopAllOnSignals()
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
            StartedProcesses.atExit { try? FileManager.default.removeItem(at: scratch) }
            try body(scratch)
        } catch {
            FileHandle.standardError.write(Data("layerwatch-bench \(name): \(error)\n".utf8))
            exit(1)
        }
    }

    /// The last lines a player wrote to its log, passwords in URLs masked.
    static func tail(of log: URL) -> String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Redactor.scrubUserInfo(text.split(separator: "\n").suffix(8).joined(separator: "\n"))
    }

    /// Prints a bench's `table` and writes its `markdown` to `path`.
    static func publish(table: String, markdown: String, to path: String) throws {
        print(table)
        try markdown.write(toFile: path, atomically: true, encoding: .utf8)
        progress("wrote \(path)")
    }
}

extension Measurement {
    /// The run with the median CPU, carrying the lowest and highest CPU of all runs.
    static func medianByCPU(_ runs: [Measurement]) -> Measurement {
        let sorted = runs.sorted { ($0.cpuSecondsPerMinutePerStream ?? 0) < ($1.cpuSecondsPerMinutePerStream ?? 0) }
        var median = sorted[(sorted.count - 1) / 2]
        let cpus = sorted.compactMap(\.cpuSecondsPerMinutePerStream)
        if cpus.count > 1, let low = cpus.first, let high = cpus.last { median.cpuRange = [low, high] }
        return median
    }

    /// This measurement, labelled with the stream `server` serves.
    func on(_ server: BenchServer) -> Measurement {
        var labelled = self
        labelled.profile = server.profile
        return labelled
    }
}
