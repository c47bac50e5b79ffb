import Foundation

/// `layerwatch-bench webrtc`: what a WebRTC camera costs on screen. On the screen bench's private X
/// server, one at a time in rounds: Layerwatch's window on its own RTSP path (`rtsp_server.py`),
/// Layerwatch on a loopback WebRTC camera (`webrtc_camera.py`, aiortc, WHEP) sending the same
/// picture, and Chromium playing that camera with a WHEP page into a `<video>` (what a Mainsail user
/// watches; as it chooses, GL on Mesa's llvmpipe here, and with `--disable-gpu`), at the same picture size; each with the screen bench's readings (clock → screen, CPU,
/// first picture) and its camera's CPU beside. Prints a table and writes the results file; it
/// asserts nothing.
enum WebRTCBench {
    static func run(arguments: [String]) {
        let flags = Flags(arguments: arguments)
        let quick = flags.has("--quick")
        let plan = ScreenBench.Plan(rounds: flags.int("--rounds", default: quick ? 1 : 3),
                                    timing: ScreenRun.Timing(settle: 2, seconds: flags.double("--seconds", default: quick ? 10 : 20)),
                                    quick: quick)
        BenchRun.command("webrtc") { directory in
            let machine = Machine.current()
            let measured = try ScreenDesk.run(in: directory, flags: flags) { desk in
                try Bench(desk: desk, directory: directory, timing: plan.timing).measure(rounds: plan.rounds)
            }
            let report = WebRTCReport(machine: machine, plan: plan, runs: measured.runs, ice: measured.ice,
                                      chromium: version("/usr/bin/chromium", ["--version"]),
                                      aiortc: version("/usr/bin/python3", ["-c", "import aiortc; print(aiortc.__version__)"]))
            try BenchRun.publish(table: report.table(), markdown: report.markdown(), to: flags.string("--results") ?? "bench/WEBRTC.md")
        }
    }

    /// The players, in the order each round runs them.
    enum Player: CaseIterable {
        case layerwatchRTSP, layerwatchWebRTC, chromium, chromiumNoGPU

        var label: String {
            switch self {
            case .layerwatchRTSP: return "Layerwatch, RTSPS"
            case .layerwatchWebRTC: return "Layerwatch, WebRTC (WHEP)"
            case .chromium: return "Chromium, WebRTC (WHEP)"
            case .chromiumNoGPU: return "Chromium --disable-gpu, WebRTC (WHEP)"
            }
        }

        var isChromium: Bool { self == .chromium || self == .chromiumNoGPU }
    }

    /// What the ICE of each WebRTC player used: the candidate addresses Chromium gathered (from its
    /// page's console line), those each player's offer carried to the camera, and the camera's own.
    struct ICEAddresses {
        var chromiumGathered: Set<String> = []
        var offered: [Player: Set<String>] = [:]
        var answered: Set<String> = []
    }

    /// What every run needs: the desk and where logs go.
    private struct Bench {
        let desk: ScreenDesk
        let directory: URL
        let timing: ScreenRun.Timing

        func measure(rounds: Int) throws -> (runs: [Player: [ScreenRun]], ice: ICEAddresses) {
            let screen = desk.screen
            // Until Layerwatch's picture is measured, Chromium gets the size it is set up for.
            var picture = ScreenRect(x: 238, y: 210, width: 1443, height: 812)
            var runs: [Player: [ScreenRun]] = [:]
            var ice = ICEAddresses()
            try desk.home.write()
            for round in 1...rounds {
                for player in Player.allCases {
                    BenchRun.progress("round \(round) of \(rounds): \(player.label) (display \(desk.session.display))")
                    let run = try single(player, round: round, picture: picture, screen: screen, ice: &ice)
                    if player == .layerwatchRTSP, runs[player] == nil, let measured = run.picture { picture = measured }
                    runs[player, default: []].append(run)
                }
            }
            return (runs, ice)
        }

        /// One player with a camera of its own, started for it and stopped after it.
        private func single(_ player: Player, round: Int, picture: ScreenRect, screen: XScreen,
                            ice: inout ICEAddresses) throws -> ScreenRun {
            let log = directory.appendingPathComponent("\(player)-\(round).log")
            switch player {
            case .layerwatchRTSP:
                let server = try BenchServer(script: "Tests/Servers/rtsp_server.py", profile: .ultrafast, extra: ["--screen-marks"])
                defer { server.stop() }
                return try measure(player, .layerwatch(.cairo), url: server.url, picture: picture, screen: screen, log: log, camera: server.pid)
            case .layerwatchWebRTC, .chromium, .chromiumNoGPU:
                let camera = try WebRTCCamera(script: "Tests/Servers/webrtc_camera.py", page: "bench/whep-player.html")
                defer { camera.stop() }
                let shown: ScreenPlayer = player.isChromium
                    ? .chromium(profile: directory.appendingPathComponent("\(player)-\(round)").path, gpu: player == .chromium)
                    : .layerwatch(.cairo)
                let url = player.isChromium ? camera.pageURL : camera.whepURL
                let run = try measure(player, shown, url: url, picture: picture, screen: screen, log: log, camera: camera.pid)
                ice.offered[player.isChromium ? .chromium : player, default: []].formUnion(camera.candidates("offer"))
                ice.answered.formUnion(camera.candidates("answer"))
                if player.isChromium { ice.chromiumGathered.formUnion(Self.gathered(in: log)) }
                return run
            }
        }

        private func measure(_ player: Player, _ shown: ScreenPlayer, url: String, picture: ScreenRect, screen: XScreen,
                             log: URL, camera: Int32) throws -> ScreenRun {
            var command = shown.command(url: url, app: desk.app, picture: picture)
            if case .layerwatch = shown { command.environment.merge(desk.home.environment) { $1 } }
            return try ScreenRun.measure(player.label, command: command, screen: screen, session: desk.session, timing: timing,
                                         log: log, camera: camera)
        }

        /// The addresses on the page's "gathered candidates:" console line in Chromium's output.
        private static func gathered(in log: URL) -> [String] {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            guard let line = text.split(separator: "\n").first(where: { $0.contains("gathered candidates:") }),
                  let after = line.range(of: "gathered candidates:")?.upperBound else { return [] }
            return line[after...].prefix { $0 != "\"" }.split(separator: " ").map(String.init)
        }
    }

    /// What `executable` `arguments` prints (a version), for the report.
    private static func version(_ executable: String, _ arguments: [String]) -> String {
        let output = Pipe()
        guard let process = try? StartedProcesses.start(executable, arguments, stdout: output) else { return "not found" }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        StartedProcesses.stop(process)
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
