import CameraKit
import StreamKit

/// A camera frame as a JPEG, turned and flipped upright as its camera is mounted: the timelapse's
/// pictures and the print journal's. Thread-safe; called off the main loop.
enum UprightJPEG {
    static func encode(_ frame: VideoFrame, orientation: PictureOrientation) throws -> [UInt8] {
        guard orientation != .upright else {
            return try TimelapseEncoder.jpeg(frame.pixels, width: frame.width, height: frame.height, stride: frame.stride, order: frame.order)
        }
        let turned = orientation.upright(frame.pixels, width: frame.width, height: frame.height, stride: frame.stride)
        return try turned.bytes.withUnsafeBytes {
            try TimelapseEncoder.jpeg($0.baseAddress!, width: turned.width, height: turned.height, stride: turned.width * 4, order: frame.order)
        }
    }
}
