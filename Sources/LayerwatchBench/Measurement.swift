/// The figures of one measured run: one client (Layerwatch or `ffmpeg`), one way of viewing, some
/// number of streams. Missing figures are nil (a hidden view shows no frames, so it has no latency).
struct Measurement: Codable {
    var client: String
    var view: String
    var streams: Int
    /// The bench stream measured (set by the bench, which knows its server).
    var profile: StreamProfile?
    /// Seconds from attaching (or starting `ffmpeg`) to the first frame: median and worst over streams.
    var firstFrameSeconds: Double?
    var firstFrameWorstSeconds: Double?
    /// Seconds from attaching until the stream was open (Layerwatch's `StreamStats.timeToOpen`):
    /// the rest of the time to first frame is the wait for a keyframe, and decoding it.
    var openSeconds: Double?
    /// Milliseconds between painting and receiving the first frame.
    var firstFrameAgeMilliseconds: Double?
    /// Capture → texture (or → decoded pixels for `ffmpeg`) over the steady window.
    var latencyP50: Double?
    var latencyP95: Double?
    /// Median latency of the window's last third minus its first third: > 0 means a growing backlog.
    var latencyDrift: Double?
    var cpuSecondsPerMinutePerStream: Double?
    /// Lowest and highest CPU when the figure is the median of repeated runs.
    var cpuRange: [Double]?
    var peakRSSMegabytes: Double?
    /// Layerwatch's mean decode and convert time per frame over the window's last second
    /// (`StreamStats`), median over streams.
    var decodeMilliseconds: Double?
    var convertMilliseconds: Double?
    /// Frames decoded and frames shown per second, per stream.
    var decodedPerSecond: Double?
    var shownPerSecond: Double?

    init(client: String, view: String, streams: Int) {
        self.client = client
        self.view = view
        self.streams = streams
    }
}

/// Ages recorded over a steady window, with when each was taken (seconds into the window).
struct AgeSeries {
    private(set) var samples: [(at: Double, milliseconds: Double)] = []

    mutating func add(at: Double, milliseconds: Double) { samples.append((at, milliseconds)) }

    mutating func merge(_ other: AgeSeries) { samples += other.samples }

    /// Writes p50, p95 and drift into `measurement` for a window `seconds` long.
    func summarize(into measurement: inout Measurement, seconds: Double) {
        let all = Percentiles(samples.map(\.milliseconds))
        measurement.latencyP50 = all.median
        measurement.latencyP95 = all.value(95)
        let early = Percentiles(samples.filter { $0.at < seconds / 3 }.map(\.milliseconds)).median
        let late = Percentiles(samples.filter { $0.at >= seconds * 2 / 3 }.map(\.milliseconds)).median
        if let early, let late { measurement.latencyDrift = late - early }
    }
}
