import Foundation

/// A process tree's memory over a measuring window, in MiB, as the background benches report it:
/// `VmRSS` sampled once a second (its peak and median), the median `RssAnon` (the tree's own
/// memory — heap, frames, caches — without the files it maps: GTK's and FFmpeg's libraries, fonts,
/// which other processes share) and `VmHWM` at the window's end (the peak over the process's life).
struct MemoryFigures {
    var peakRSS: Double?
    var steadyRSS: Double?
    var steadyAnonymousRSS: Double?
    var lifetimePeakRSS: Double?

    /// Samples `trees` once a second over a window of `seconds` (its fraction slept at the end),
    /// so the call lasts the window.
    static func sampling(_ trees: FarmProcesses, seconds: Double) -> MemoryFigures {
        var resident: [Double] = [], anonymous: [Double] = []
        for second in 0...Int(seconds) {
            if let rss = trees.megabytes("VmRSS") { resident.append(rss) }
            if let anon = trees.megabytes("RssAnon") { anonymous.append(anon) }
            if second < Int(seconds) { Thread.sleep(forTimeInterval: 1) }
        }
        Thread.sleep(forTimeInterval: seconds - Double(Int(seconds)))
        return MemoryFigures(peakRSS: resident.max(), steadyRSS: Percentiles(resident).median,
                             steadyAnonymousRSS: Percentiles(anonymous).median, lifetimePeakRSS: trees.megabytes("VmHWM"))
    }
}
