import CFFmpeg
import Foundation

/// Maps a file's timestamps to wall-clock due times, so a file plays at its own speed.
struct PlaybackClock {
    private var origin: (pts: Int64, wall: UInt64)?

    /// Seconds to wait before showing the frame with `pts`; 0 when it is due or has no timestamp.
    mutating func wait(pts: Int64, timeBase: AVRational) -> TimeInterval {
        let now = DispatchTime.now().uptimeNanoseconds
        guard pts != lw_nopts_value(), timeBase.den > 0 else { return 0 }
        guard let origin else {
            self.origin = (pts, now)
            return 0
        }
        let offset = Double(pts - origin.pts) * Double(timeBase.num) / Double(timeBase.den)
        let due = Double(origin.wall) / 1e9 + offset
        let wait = due - Double(now) / 1e9
        if wait < -1 || wait > 5 {
            self.origin = (pts, now)
            return 0
        }
        return max(0, wait)
    }
}
