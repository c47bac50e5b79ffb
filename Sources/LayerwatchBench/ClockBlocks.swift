import Foundation
import StreamKit

/// Reads the wall clock that `rtsp_server.py --clock-blocks` paints into the bottom strip of every
/// frame (Unix milliseconds mod 2³², 32 blocks, most significant bit left, white = 1) and turns it
/// into the frame's age. Blocks scale with the frame, so any conversion size can be read.
enum ClockBlocks {
    /// The row to sample in a frame `height` pixels tall.
    static func sampleRow(height: Int) -> Int { height - height / 16 }

    /// The painted value, from `luma(x)` samples along the sample row of a frame `width` pixels wide.
    static func read(width: Int, luma: (Int) -> UInt8) -> UInt32 {
        var value: UInt32 = 0
        for bit in 0..<32 {
            let x = Int((Double(bit) + 0.5) * Double(width) / 32)
            value = value << 1 | (luma(x) > 128 ? 1 : 0)
        }
        return value
    }

    /// The painted value of a converted BGRA frame (its green byte is the grey level).
    static func read(_ frame: VideoFrame) -> UInt32 {
        let y = sampleRow(height: frame.height)
        return read(width: frame.width) { frame.rgb(x: $0, y: y).g }
    }

    static func nowMilliseconds() -> UInt32 {
        UInt32(truncatingIfNeeded: Int64(Date().timeIntervalSince1970 * 1000))
    }

    /// Milliseconds from painting `painted` to now (wraps correctly across 2³²).
    static func age(of painted: UInt32, now: UInt32 = nowMilliseconds()) -> Double {
        Double(Int32(bitPattern: now &- painted))
    }
}
