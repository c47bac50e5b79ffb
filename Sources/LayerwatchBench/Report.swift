import Foundation

/// Turns the measurements into the printed table, the target check and `bench/RESULTS.md`.
struct Report {
    let machine: Machine
    let plan: BenchRun.Plan
    let firstFrames: [Measurement]
    let baselines: [Measurement]
    let scenarios: [Measurement]

    private static let headers = ["client", "view", "stream", "streams", "TTFF s (med/worst)", "open s", "1st age ms",
                                  "p50 ms", "p95 ms", "drift ms", "CPU s/min/stream", "decode ms", "convert ms", "peak RSS MiB",
                                  "decoded/s", "shown/s"]

    private var rows: [[String]] {
        (firstFrames + baselines + scenarios).map { m in
            [m.client, m.view, m.profile?.label ?? "–", "\(m.streams)",
             m.firstFrameSeconds.map { "\(fmt($0, 2))/\(fmt(m.firstFrameWorstSeconds ?? $0, 2))" } ?? "–",
             fmt(m.openSeconds, 2), fmt(m.firstFrameAgeMilliseconds, 0), fmt(m.latencyP50, 0), fmt(m.latencyP95, 0),
             fmt(m.latencyDrift, 0), cpu(m), fmt(m.decodeMilliseconds, 2), fmt(m.convertMilliseconds, 2),
             fmt(m.peakRSSMegabytes, 0),
             fmt(m.decodedPerSecond, 1), fmt(m.shownPerSecond, 1)]
        }
    }

    /// CPU, with the range when it is the median of several runs: "5.0 (4.8–5.5)".
    private func cpu(_ m: Measurement) -> String {
        guard let range = m.cpuRange, range.count == 2 else { return fmt(m.cpuSecondsPerMinutePerStream, 1) }
        return "\(fmt(m.cpuSecondsPerMinutePerStream, 1)) (\(fmt(range[0], 1))–\(fmt(range[1], 1)))"
    }

    /// A plain-text table for the terminal.
    func table() -> String {
        let all = [Self.headers] + rows
        let widths = Self.headers.indices.map { column in all.map { $0[column].count }.max()! }
        return all.map { row in
            zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// Each target with the measured figures and whether it is met.
    func targets() -> String {
        var lines: [String] = []
        func check(_ name: String, _ ok: Bool?, _ detail: String) {
            lines.append("- \(ok.map { $0 ? "MET" : "MISSED" } ?? "n/a"): \(name) — \(detail)")
        }
        func first(_ client: String, _ profile: StreamProfile) -> Measurement? {
            firstFrames.first { $0.client == client && $0.profile == profile }
        }
        let onPlay = first("Layerwatch", .keyframeOnPlay), midGOP = first("Layerwatch", .ultrafast)
        check("time to first frame ≤ 0.35 s (camera sends an IDR on PLAY)", onPlay?.firstFrameSeconds.map { $0 <= 0.35 },
              "Layerwatch median \(fmt(onPlay?.firstFrameSeconds, 2)) s, of which \(fmt(onPlay?.openSeconds, 2)) s to open the stream")
        check("time to first frame ≤ 0.35 s (camera keeps its one-second GOP, client joins mid-GOP)",
              midGOP?.firstFrameSeconds.map { $0 <= 0.35 },
              "Layerwatch median \(fmt(midGOP?.firstFrameSeconds, 2)) s = \(fmt(midGOP?.openSeconds, 2)) s to open + the wait "
                + "for the camera's next IDR (0–1 s, no client can shorten it)")
        for profile in [StreamProfile.keyframeOnPlay, .ultrafast] {
            let mine = first("Layerwatch", profile)?.firstFrameSeconds, theirs = first("ffmpeg tuned", profile)?.firstFrameSeconds
            check("time to first frame no worse than tuned ffmpeg (\(profile.label))", zip2(mine, theirs).map { $0 <= $1 },
                  "Layerwatch \(fmt(mine, 2)) s vs ffmpeg tuned \(fmt(theirs, 2)) s")
        }

        let tunedP50 = baseline("ffmpeg tuned", "rawvideo pipe", .ultrafast)?.latencyP50
        for mode in [ViewMode.full, .window, .mini] {
            let p50 = scenario(mode, 1, .ultrafast)?.latencyP50
            check("latency p50 ≤ tuned ffmpeg + 5 ms (\(mode.label))", zip2(p50, tunedP50).map { $0 <= $1 + 5 },
                  "Layerwatch \(fmt(p50, 0)) ms vs ffmpeg tuned \(fmt(tunedP50, 0)) ms")
        }

        // Judged on the camera-like stream; the ultrafast one, which no camera sends, is printed for
        // reference: its decoding is nearly free, so the conversion ffmpeg -f null skips weighs most,
        // and it has no deblocking for a small view to skip.
        for profile in [StreamProfile.cameraLike, .ultrafast] {
            let nullCPU = baseline("ffmpeg defaults", "-f null", profile)?.cpuSecondsPerMinutePerStream
            for (mode, limit) in [(ViewMode.full, 1.2), (.mini, 0.8), (.hidden, 0.3)] {
                let cpu = scenario(mode, 1, profile)?.cpuSecondsPerMinutePerStream
                let ratio = zip2(cpu, nullCPU).map { $0 / $1 }
                let figures = "\(fmt(cpu, 1)) vs \(fmt(nullCPU, 1)) CPU s/min = \(fmt(ratio, 2))×"
                if profile == .cameraLike {
                    check("CPU \(mode.label) ≤ \(limit)× ffmpeg -f null (camera-like stream, medians of \(plan.cpuRounds) rounds)",
                          ratio.map { $0 <= limit }, figures)
                } else {
                    lines.append("- reference, not a target: CPU \(mode.label) against ffmpeg -f null on the \(profile.label) stream "
                                 + "(one run; the cheapest H.264 to decode, so the BGRA conversion weighs most) — \(figures)")
                }
            }
        }

        for mode in ViewMode.scaling {
            let perSession = zip2(scenario(mode, 8, .ultrafast)?.peakRSSMegabytes, scenario(mode, 1, .ultrafast)?.peakRSSMegabytes)
                .map { ($0 - $1) / 7 }
            check("RSS per extra session ≤ 40 MB (\(mode.label))", perSession.map { $0 * 1.048576 <= 40 },
                  "(peak with 8 − peak with 1) / 7 = \(fmt(perSession, 1)) MiB")
        }

        for mode in ViewMode.scaling {
            guard let eight = scenario(mode, 8, .ultrafast) else { continue }
            // Hidden sessions decode keyframes only (one a second) after 3 s, so they keep up at ≥ 0.9/s.
            let needed = mode.visible ? Double(BenchServer.fps) * 0.95 : 0.9
            let keepsUp = (eight.decodedPerSecond ?? 0) >= needed
            let stable = eight.latencyDrift.map { $0 < 50 } ?? true
            check("8 sessions without a growing backlog (\(mode.label))", keepsUp && stable,
                  "decoded \(fmt(eight.decodedPerSecond, 1))/s per stream (needs ≥ \(fmt(needed, 1))), latency drift \(fmt(eight.latencyDrift, 0)) ms")
        }
        return lines.joined(separator: "\n")
    }

    /// The results file.
    func markdown() -> String {
        let header = "| " + Self.headers.joined(separator: " | ") + " |\n|" + String(repeating: "---|", count: Self.headers.count)
        let body = rows.map { "| " + $0.joined(separator: " | ") + " |" }.joined(separator: "\n")
        return """
        # Layerwatch benchmark results

        Generated by `bench/run.sh\(plan.quick ? " --quick" : "")` (see bench/README.md). Printed figures, no assertions.

        ## Machine

        \(machine.markdownLines)
        - Streams: loopback RTSPS (`Tests/Servers/rtsp_server.py --tls --clock-blocks`), H.264 \(BenchServer.width)×\(BenchServer.height) at \(BenchServer.fps) fps, about 2 Mbit/s, encoded by GStreamer's x264 on the same two cores: **ultrafast** (no deblocking, CAVLC; one IDR a second), **ultrafast, IDR on PLAY** (`--keyframe-on-play`), **superfast + noise** (CABAC and deblocking, like a camera's encoder, of the picture with sensor-like noise of 0–7 grey levels: `--preset superfast --noise 7`; one IDR a second)
        - Windows: \(fmt(plan.warmup, 0)) s warm-up, then \(fmt(plan.seconds, 0)) s measured per run; \(plan.trials) first-frame trials per client and stream

        ## Figures

        \(header)
        \(body)

        ## Targets

        \(targets())

        \(Self.notes)
        """
    }

    /// The hand-written parts: how figures are taken, the optimisations measured before/after, the soak.
    private static let notes = ["bench/METHOD.md", "bench/OPTIMISATIONS.md", "bench/SOAK.md"]
        .compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }.joined(separator: "\n")

    private func baseline(_ client: String, _ view: String, _ profile: StreamProfile) -> Measurement? {
        baselines.first { $0.client == client && $0.view == view && $0.profile == profile }
    }

    private func scenario(_ mode: ViewMode, _ streams: Int, _ profile: StreamProfile) -> Measurement? {
        scenarios.first { $0.view == mode.label && $0.streams == streams && $0.profile == profile }
    }
}

private func zip2(_ a: Double?, _ b: Double?) -> (Double, Double)? {
    guard let a, let b else { return nil }
    return (a, b)
}

/// A table as lines: Markdown (`| a | b |` under a `|---|` rule) or plain columns padded to width.
func tableLines(headers: [String], rows: [[String]], markdown: Bool) -> [String] {
    let all = [headers] + rows
    if markdown {
        return all.map { "| " + $0.joined(separator: " | ") + " |" }
            .enumerated().flatMap { index, line in index == 0 ? [line, "|" + String(repeating: "---|", count: headers.count)] : [line] }
    }
    let widths = headers.indices.map { column in all.map { $0[column].count }.max()! }
    return all.map { row in zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ") }
}

func fmt(_ value: Double?, _ digits: Int) -> String {
    value.map { String(format: "%.\(digits)f", $0) } ?? "–"
}
