import Foundation

/// The whole benchmark in one run: the server, the first-frame trials, the `ffmpeg` baselines and
/// every Layerwatch scenario (each in a child process), then the table and the results file.
enum BenchRun {
    static func run(arguments: [String]) {
        let flags = Flags(arguments: arguments)
        let quick = flags.has("--quick")
        let plan = Plan(warmup: quick ? 4 : 5, seconds: quick ? 8 : 20, trials: quick ? 3 : 6, quick: quick)
        do {
            let machine = Machine.current()
            let server = try BenchServer(script: flags.string("--server") ?? "Tests/Servers/rtsp_server.py")
            defer { server.stop() }
            let defaults = FFmpegClient(url: server.url, tuned: false), tuned = FFmpegClient(url: server.url, tuned: true)
            let keeper = try defaults.startKeeper()
            defer { defaults.stop(keeper) }
            Thread.sleep(forTimeInterval: 3)

            progress("first-frame trials (\(plan.trials) each)")
            var trials: [[Measurement]] = [[], [], []]
            for _ in 0..<plan.trials {
                trials[0].append(try FirstFrameTrial.run(url: server.url))
                trials[1].append(try defaults.measureLatency(warmup: 0, seconds: 0))
                trials[2].append(try tuned.measureLatency(warmup: 0, seconds: 0))
            }
            let firstFrames = trials.map(summarize(trials:))

            var baselines: [Measurement] = []
            for client in [defaults, tuned] {
                progress("\(client.label): -f null, then rawvideo pipe")
                baselines.append(try client.measureDecodeOnly(warmup: plan.warmup, seconds: plan.seconds))
                baselines.append(try client.measureLatency(warmup: plan.warmup, seconds: plan.seconds))
            }

            var scenarios: [Measurement] = []
            for mode in ViewMode.allCases {
                for streams in [1, 4, 8] {
                    progress("Layerwatch \(mode.label) × \(streams)")
                    scenarios.append(try scenario(url: server.url, mode: mode, streams: streams, plan: plan))
                }
            }
            progress("Layerwatch visible 1920 × 1 with 1 decode thread")
            scenarios.append(try scenario(url: server.url, mode: .full, streams: 1, plan: plan, extra: ["--threads", "1"]))

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
        let quick: Bool
    }

    /// Median and worst time to first frame, median first-frame age, over repeated trials.
    private static func summarize(trials: [Measurement]) -> Measurement {
        var result = Measurement(client: trials[0].client, view: "first frame ×\(trials.count)", streams: 1)
        let seconds = Percentiles(trials.compactMap(\.firstFrameSeconds))
        result.firstFrameSeconds = seconds.median
        result.firstFrameWorstSeconds = seconds.value(100)
        result.firstFrameAgeMilliseconds = Percentiles(trials.compactMap(\.firstFrameAgeMilliseconds)).median
        return result
    }

    /// Runs one Layerwatch scenario in a child process of this executable and reads its JSON line.
    private static func scenario(url: String, mode: ViewMode, streams: Int, plan: Plan, extra: [String] = []) throws -> Measurement {
        let process = Process(), pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["scenario", "--url", url, "--mode", mode.rawValue, "--sessions", "\(streams)",
                             "--warmup", "\(plan.warmup)", "--seconds", "\(plan.seconds)"] + extra
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let line = output.split(separator: 10).last else {
            throw BenchError("scenario \(mode.rawValue) × \(streams) failed (status \(process.terminationStatus))")
        }
        return try JSONDecoder().decode(Measurement.self, from: Data(line))
    }

    private static func progress(_ text: String) {
        FileHandle.standardError.write(Data("· \(text)\n".utf8))
    }
}
