import Foundation

/// `layerwatch-bench screen`: what a user sees on screen. On a private X server it runs Layerwatch's
/// real window (with each GTK renderer) and two peers, GStreamer and mpv, one at a time in rounds,
/// all showing the same loopback 1080p30 clock stream at the same picture size, and reads the clock
/// back from the framebuffer: clock → screen latency, frames shown a second, CPU, time to the first
/// picture. Then Layerwatch with four cameras in tabs and a mini window. Prints a table and writes
/// the results file; it asserts nothing.
enum ScreenBench {
    static func run(arguments: [String]) {
        let flags = Flags(arguments: arguments)
        let quick = flags.has("--quick")
        let plan = Plan(rounds: quick ? 1 : 3, timing: ScreenRun.Timing(settle: 2, seconds: quick ? 10 : 20), quick: quick)
        BenchRun.command("screen") { directory in
            let players = try list(flags.string("--players") ?? "layerwatch,gstreamer,mpv", of: ["layerwatch", "gstreamer", "mpv"])
            let renderers = try list(flags.string("--renderers") ?? "cairo,gl,gles", of: Renderer.allCases.map(\.rawValue))
                .compactMap(Renderer.init(rawValue:)).filter { _ in players.contains("layerwatch") }
            let order = renderers.map(ScreenPlayer.layerwatch) + ScreenPlayer.peers.filter { players.contains($0.label.lowercased()) }
            let machine = Machine.current()
            let measured = try ScreenDesk.run(in: directory, flags: flags) { desk in
                try Bench(desk: desk, directory: directory, timing: plan.timing)
                    .measure(order, rounds: plan.rounds, renderers: renderers, script: flags.string("--server") ?? "Tests/Servers/rtsp_server.py")
            }

            let report = ScreenReport(machine: machine, plan: plan, order: order, runs: measured.runs, fourCameras: measured.fourCameras)
            try BenchRun.publish(table: report.table(), markdown: report.markdown(), to: flags.string("--results") ?? "bench/SCREEN.md")
        }
    }

    /// Rounds and timing of one run of the bench.
    struct Plan {
        let rounds: Int
        let timing: ScreenRun.Timing
        let quick: Bool
    }

    /// What every run needs: the desk and where logs go.
    private struct Bench {
        let desk: ScreenDesk
        let directory: URL
        let timing: ScreenRun.Timing

        /// Starts the server, runs `order` `rounds` times, then the four-camera runs.
        func measure(_ order: [ScreenPlayer], rounds: Int, renderers: [Renderer],
                     script: String) throws -> (runs: [ScreenPlayer: [ScreenRun]], fourCameras: [Renderer: ScreenRun]) {
            let screen = desk.screen
            BenchRun.progress("server: \(StreamProfile.ultrafast.label), marks at the picture's corners, 4 paths (display \(desk.session.display))")
            let server = try BenchServer(script: script, profile: .ultrafast, extra: ["--screen-marks", "--paths", "4"])
            defer { server.stop() }

            // Until Layerwatch's picture is measured, the peers get the size it is set up for.
            var picture = ScreenRect(x: 238, y: 210, width: 1443, height: 812)
            var pictureMeasured = false
            var runs: [ScreenPlayer: [ScreenRun]] = [:]
            for round in 1...rounds {
                for player in order {
                    BenchRun.progress("round \(round) of \(rounds): \(player.label) \(rendererLabel(player))")
                    let run = try single(player, url: server.url, picture: picture, screen: screen)
                    if case .layerwatch = player, !pictureMeasured, let measured = run.picture {
                        picture = measured
                        pictureMeasured = true
                    }
                    runs[player, default: []].append(run)
                }
            }
            var fourCameras: [Renderer: ScreenRun] = [:]
            for renderer in renderers {
                BenchRun.progress("Layerwatch, 4 cameras in tabs + 1 mini window, \(renderer.label)")
                fourCameras[renderer] = try self.fourCameras(urls: (1...4).map { $0 == 1 ? server.url : "\(server.url)/\($0)" },
                                                             renderer: renderer, screen: screen)
            }
            return (runs, fourCameras)
        }

        /// One player on the stream alone: Layerwatch with the camera URL on its command line (a tab).
        private func single(_ player: ScreenPlayer, url: String, picture: ScreenRect, screen: XScreen) throws -> ScreenRun {
            var command = player.command(url: url, app: desk.app, picture: picture)
            if case .layerwatch = player {
                try desk.home.write()
                command.environment.merge(desk.home.environment) { $1 }
            }
            return try ScreenRun.measure(player.label, command: command, screen: screen, session: desk.session, timing: timing,
                                         log: log(player.label))
        }

        /// Layerwatch with `urls` saved as printers in tabs (the first shown) and the second one in
        /// a mini window (kept on top), moved to the screen's top-left corner: over the main
        /// picture's LIVE badge at most, clear of its marks and clock.
        private func fourCameras(urls: [String], renderer: Renderer, screen: XScreen) throws -> ScreenRun {
            try desk.home.write(cameras: urls, mini: true)
            let command = (desk.app, [String](), renderer.environment.merging(desk.home.environment) { $1 })
            return try ScreenRun.measure("Layerwatch, 4 tabs + mini", command: command, screen: screen, session: desk.session,
                                         timing: timing, log: log("four-cameras")) {
                let mover = try StartedProcesses.start("/usr/bin/timeout", ["5", "xdotool", "search", "--sync", "--name", " - PiP$",
                                                                            "windowmove", "%@", "0", "0"], environment: desk.session.environment)
                mover.waitUntilExit()
            }
        }

        private func log(_ name: String) -> URL {
            directory.appendingPathComponent("\(name.lowercased().replacingOccurrences(of: " ", with: "-"))-\(UUID().uuidString.prefix(8)).log")
        }
    }

    private static func rendererLabel(_ player: ScreenPlayer) -> String {
        if case .layerwatch(let renderer) = player { return renderer.label }
        return ""
    }

    /// The names in a comma-separated flag, each one of `known`.
    private static func list(_ text: String, of known: [String]) throws -> [String] {
        let names = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard !names.isEmpty, names.allSatisfy(known.contains) else {
            throw BenchError("“\(text)” is not a list of \(known.joined(separator: ", "))")
        }
        return names
    }
}
