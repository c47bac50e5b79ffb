import Foundation
import JournalSamples

/// `layerwatch-bench history-page`: the History page of a journal of 10 000 prints with real JPEG
/// final pictures (`GeneratedJournal`, which the app's tests use too), in Layerwatch's real window
/// (`GSK_RENDERER=cairo`) on the screen bench's private X server. Each round starts the app afresh
/// on the journal (in a throwaway `XDG_DATA_HOME`), activates `win.show-history` over D-Bus as the
/// header bar's button does, and takes the app's own figure — from the action to the frame clock's
/// `after-paint` of the first frame with the rows (its debug log) — and the bench's, from the D-Bus
/// call to that log line. Then it scrolls to the end with Page Down, 30 presses a second, as a
/// user holding the key does, while reading the list's column of the framebuffer as fast as it
/// can, until the list is at its end: how often what shows changed (frames shown a second), and
/// the gaps between changes (p50, p95, longest) — a gap much longer than the presses' 33 ms is a stall the user sees. Prints a
/// table and writes the results file; it asserts nothing.
enum HistoryBench {
    struct Run {
        let appMilliseconds: Double?
        let benchMilliseconds: Double?
        let framesPerSecond: Double?
        let gaps: Percentiles
        let listedAll: Bool
    }

    static func run(arguments: [String]) {
        let flags = Flags(arguments: arguments)
        let quick = flags.has("--quick")
        let rounds = flags.int("--rounds", default: quick ? 1 : 3), count = flags.int("--prints", default: 10_000)
        let presses = flags.int("--presses", default: quick ? 300 : 1300)
        BenchRun.command("history-page") { directory in
            let machine = Machine.current()
            let data = directory.appendingPathComponent("data")
            BenchRun.progress("journal: \(count) prints with their final pictures (640×480 JPEGs)")
            try GeneratedJournal.write(count: count, to: data.appendingPathComponent("layerwatch/journal.sqlite3"), spacing: 600)
            let runs = try ScreenDesk.run(in: directory, flags: flags) { desk in
                try desk.home.write()
                return try (1...rounds).map { round in
                    BenchRun.progress("round \(round) of \(rounds): the app, then win.show-history, then \(presses) × Page Down")
                    return try measure(on: desk, data: data, presses: presses)
                }
            }
            let markdown = report(runs, machine: machine, count: count, presses: presses)
            try BenchRun.publish(table: markdown, markdown: markdown, to: flags.string("--results") ?? "bench/HISTORY-PAGE.md")
        }
    }

    private static func measure(on desk: ScreenDesk, data: URL, presses: Int) throws -> Run {
        let log = AppLog(file: data.deletingLastPathComponent().appendingPathComponent("layerwatch-\(UUID().uuidString.prefix(6)).log"))
        guard FileManager.default.createFile(atPath: log.file.path, contents: nil) else { throw BenchError("cannot write \(log.file.path)") }
        let output = try FileHandle(forWritingTo: log.file)
        let app = try StartedProcesses.start(desk.app, [], environment: desk.appEnvironment(.cairo).merging(
            ["XDG_DATA_HOME": data.path, "G_MESSAGES_DEBUG": "Layerwatch"]) { $1 }, stdout: output, stderr: output)
        defer { StartedProcesses.stop(app) }
        guard log.wait(for: "window mapped", seconds: 30) != nil else {
            throw BenchError("the window did not map; the app said: \(log.tail)")
        }
        Thread.sleep(forTimeInterval: 2)
        let asked = Date()
        let call = ["call", "--session", "--dest", "io.github.layerwatch.Layerwatch", "--object-path", "/io/github/layerwatch/Layerwatch/window/1",
                    "--method", "org.gtk.Actions.Activate", "show-history", "[]", "{}"]
        _ = try StartedProcesses.start("/usr/bin/gdbus", call, environment: desk.session.environment)
        let painted = log.wait(for: "rows painted", seconds: 30)
        let appFigure = painted.flatMap { found -> Double? in
            let words = found.line.split(separator: " ")
            return words.firstIndex(of: "ms").flatMap { $0 > 0 ? Double(words[$0 - 1]) : nil }
        }
        Thread.sleep(forTimeInterval: 1)
        guard let window = xdotool(desk, ["search", "--onlyvisible", "--pid", "\(app.processIdentifier)", "--name", "Layerwatch"])
            .split(separator: "\n").first.map(String.init) else { throw BenchError("no window") }
        let geometry = xdotool(desk, ["getwindowgeometry", "--shell", window]).split(separator: "\n")
            .reduce(into: [String: Int]()) { values, line in
                let pair = line.split(separator: "=")
                if pair.count == 2 { values[String(pair[0])] = Int(pair[1]) }
            }
        guard let x = geometry["X"], let y = geometry["Y"], let width = geometry["WIDTH"], let height = geometry["HEIGHT"] else {
            throw BenchError("no window geometry")
        }
        // The list's column: the rows' words, below the header bar and the filters.
        let column = ScreenRect(x: x + width / 2 - 100, y: y + 160, width: 8, height: max(100, height - 200))
        _ = xdotool(desk, ["windowactivate", "--sync", window])
        Thread.sleep(forTimeInterval: 1)
        let keys = try StartedProcesses.start("/usr/bin/xdotool", ["key", "--delay", "33", "--repeat", "\(presses)", "Next"],
                                              environment: desk.session.environment)
        var changes: [Double] = []
        var last: [UInt8]?
        let start = Date()
        var listedAll = false, lastLook = Date.distantPast
        // Until the presses end, or the list is at its end: every print listed and nothing moved for a second.
        while keys.isRunning {
            guard let shot = desk.screen.grab(column) else { continue }
            if shot.pixels != last {
                changes.append(Date().timeIntervalSince(start))
                last = shot.pixels
            }
            guard Date().timeIntervalSince(lastLook) > 0.1 else { continue }
            lastLook = Date()
            listedAll = listedAll || log.wait(for: "prints listed", seconds: 0) != nil
            if listedAll, let latest = changes.last, Date().timeIntervalSince(start) - latest > 1 { break }
        }
        StartedProcesses.stop(keys)
        let seconds = changes.last ?? 0
        let gaps = zip(changes.dropFirst(), changes).map { ($0 - $1) * 1000 }
        return Run(appMilliseconds: appFigure, benchMilliseconds: painted.map { $0.at.timeIntervalSince(asked) * 1000 },
                   framesPerSecond: seconds > 0 ? Double(changes.count) / seconds : nil, gaps: Percentiles(gaps), listedAll: listedAll)
    }

    private static func xdotool(_ desk: ScreenDesk, _ arguments: [String]) -> String {
        let pipe = Pipe()
        guard let process = try? StartedProcesses.start("/usr/bin/xdotool", arguments, environment: desk.session.environment, stdout: pipe) else { return "" }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }

    private static func report(_ runs: [Run], machine: Machine, count: Int, presses: Int) -> String {
        func figure(_ value: Double?, _ digits: Int = 0) -> String { value.map { String(format: "%.\(digits)f", $0) } ?? "–" }
        let rows = runs.enumerated().map { index, run in
            "| \(index + 1) | \(figure(run.appMilliseconds)) | \(figure(run.benchMilliseconds)) | \(figure(run.framesPerSecond, 1)) | "
                + "\(figure(run.gaps.median)) | \(figure(run.gaps.value(95))) | \(figure(run.gaps.value(100))) | \(run.listedAll ? "yes" : "no") |"
        }
        return """
            # History page: \(count) prints

            `layerwatch-bench history-page` (bench/history-page.sh), \(machine.date), \(machine.cpuModel), \(machine.cores) cores, \
            Layerwatch's release build, `GSK_RENDERER=cairo`, Xvfb 1920×1200.

            | round | action → rows painted, app (ms) | D-Bus call → rows painted, bench (ms) | frames shown/s while scrolling | gap p50 (ms) | gap p95 (ms) | longest gap (ms) | all \(count) listed |
            |---|---|---|---|---|---|---|---|
            \(rows.joined(separator: "\n"))

            Target (issue 38, item 6): the page opens in at most 200 ms and scrolls smoothly. Opening: from the
            `win.show-history` action to the frame clock's `after-paint` of the first frame with the rows (the app's debug
            log, `history: N rows painted M ms after the page was asked for`); the bench's figure adds the D-Bus call and
            the log's way to the bench. Scrolling: \(presses) presses of Page Down 33 ms apart (xdotool), the list's column
            of the framebuffer read as fast as XGetImage allows, until the list is at its end (every print listed and
            nothing moved for a second); a change is a frame shown, a gap the time between two.
            The thumbnails load as their rows show, so a row's picture may come a frame after its words.
            """
    }
}

/// The app's debug log, written to a file as the other benches keep theirs, read as it grows.
private struct AppLog {
    let file: URL

    /// The last lines written, for an error.
    var tail: String {
        ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").suffix(5).joined(separator: " / ")
    }

    /// The first line containing `text` and when the bench saw it, waited for up to `seconds`.
    func wait(for text: String, seconds: Double) -> (line: String, at: Date)? {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            let lines = ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n")
            if let line = lines.first(where: { $0.contains(text) }) { return (String(line), Date()) }
            Thread.sleep(forTimeInterval: 0.002)
        } while Date() < deadline
        return nil
    }
}
