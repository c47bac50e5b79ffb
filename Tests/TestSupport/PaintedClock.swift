import Foundation
import StreamKit

/// The wall clock `rtsp_server.py --clock-blocks` paints into every picture (Unix milliseconds mod
/// 2³², 32 blocks, most significant left, white = 1) in its bottom strip, and with `--top-clock` in
/// a top strip too. Reading both tells a whole picture from one whose top and bottom come from
/// different frames, and the clock's age is how late the picture arrived.
public enum PaintedClock {
    /// Where a strip is sampled.
    public enum Strip {
        case top, bottom
        func row(height: Int) -> Int { self == .top ? height / 16 : height - height / 16 }
    }

    /// The value painted in `strip` of a converted frame.
    public static func read(_ frame: VideoFrame, strip: Strip = .bottom) -> UInt32 {
        let y = strip.row(height: frame.height)
        var value: UInt32 = 0
        for bit in 0..<32 {
            let x = Int((Double(bit) + 0.5) * Double(frame.width) / 32)
            value = value << 1 | (frame.rgb(x: x, y: y).g > 128 ? 1 : 0)
        }
        return value
    }

    /// Milliseconds from `painted` to now.
    public static func age(of painted: UInt32) -> Double {
        let now = UInt32(truncatingIfNeeded: Int64(Date().timeIntervalSince1970 * 1000))
        return Double(Int32(bitPattern: now &- painted))
    }
}
