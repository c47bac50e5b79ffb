import Foundation
import StreamKit

/// One Layerwatch scenario in a process of its own (so CPU and peak RSS are its alone): N sessions,
/// each its own connection, each with one view of the given mode. Prints one JSON `Measurement`.
enum ScenarioChild {
    static func run(arguments: [String]) {
        let flags = Flags(arguments: arguments)
        guard let url = flags.string("--url"), let mode = flags.string("--mode").flatMap(ViewMode.init(rawValue:)),
              let source = try? StreamSource.parse(url) else {
            FileHandle.standardError.write(Data("usage: layerwatch-bench scenario --url URL --mode full|window|mini|hidden [--sessions N] [--warmup S] [--seconds S] [--threads N] [--keep-deblocking] [--copy-textures]\n".utf8))
            exit(2)
        }
        let count = flags.int("--sessions", default: 1)
        let warmup = flags.double("--warmup", default: 5)
        let seconds = flags.double("--seconds", default: 20)
        var options = SessionOptions()
        options.decoderThreads = flags.int("--threads", default: options.decoderThreads)
        options.skipsDeblockingForSmallViews = !flags.has("--keep-deblocking")

        let sessions = (0..<count).map { _ in StreamSession(source: source, options: options) }
        let probes = sessions.map { _ in ViewProbe(copying: flags.has("--copy-textures")) }
        let consumers = zip(sessions, probes).enumerated().map { index, pair in
            pair.0.attach(executor: DispatchQueue(label: "bench.view.\(index)"), displaySize: mode.displaySize,
                          visible: mode.visible, onState: pair.1.state, onFrame: pair.1.frame)
        }
        Thread.sleep(forTimeInterval: warmup)

        let cpuBefore = ProcFS.selfCPUSeconds()
        let decodedBefore = sessions.map(\.stats.decodedFrames)
        probes.forEach { $0.record(true) }
        Thread.sleep(forTimeInterval: seconds)
        probes.forEach { $0.record(false) }
        let cpu = ProcFS.selfCPUSeconds() - cpuBefore
        let decoded = zip(sessions.map(\.stats.decodedFrames), decodedBefore).map { Double($0 - $1) }

        var view = mode.label
        if let threads = flags.string("--threads") { view += ", \(threads) decode thread(s)" }
        if flags.has("--keep-deblocking") { view += ", deblocking kept" }
        if flags.has("--copy-textures") { view += ", textures copied" }
        var result = Measurement(client: "Layerwatch", view: view, streams: count)
        let firstFrames = Percentiles(probes.compactMap(\.timeToFirstFrame))
        result.firstFrameSeconds = firstFrames.median
        result.firstFrameWorstSeconds = firstFrames.value(100)
        result.firstFrameAgeMilliseconds = Percentiles(probes.compactMap { $0.firstFrame?.ageMilliseconds }).median
        result.openSeconds = Percentiles(sessions.compactMap(\.stats.timeToOpen)).median
        result.decodeMilliseconds = Percentiles(sessions.map(\.stats.decodeMilliseconds)).median
        result.convertMilliseconds = mode.visible ? Percentiles(sessions.map(\.stats.convertMilliseconds)).median : nil
        var ages = AgeSeries()
        probes.forEach { ages.merge($0.ages) }
        ages.summarize(into: &result, seconds: seconds)
        result.cpuSecondsPerMinutePerStream = cpu / seconds * 60 / Double(count)
        result.peakRSSMegabytes = ProcFS.statusMegabytes("VmHWM")
        result.decodedPerSecond = decoded.reduce(0, +) / seconds / Double(count)
        result.shownPerSecond = Double(probes.map(\.shownInWindow).reduce(0, +)) / seconds / Double(count)
        if firstFrames.count < count {
            FileHandle.standardError.write(Data("only \(firstFrames.count) of \(count) sessions went live\n".utf8))
        }

        let json = try! JSONEncoder().encode(result)
        print(String(decoding: json, as: UTF8.self))
        fflush(stdout)
        consumers.forEach { $0.detach() }
        exit(0)
    }
}
