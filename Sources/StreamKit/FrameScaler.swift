import CFFmpeg
import Foundation

/// Converts decoded frames to BGRA with swscale, straight to the size the views need, into pooled
/// memory. Its swscale context is cached and rebuilt only when a size or format changes.
final class FrameScaler {
    private var context: OpaquePointer?
    private let pool = FramePool()

    deinit {
        sws_freeContext(context)
    }

    /// The size to convert a `sourceWidth`×`sourceHeight` frame to so that it fills the largest of
    /// `displays` (contain fit), never larger than the source. Nil when there is nothing to show.
    static func targetSize(sourceWidth: Int, sourceHeight: Int, displays: [PixelSize]) -> PixelSize? {
        guard sourceWidth > 0, sourceHeight > 0, !displays.isEmpty else { return nil }
        var scale = 0.0
        for display in displays {
            guard display.width > 0, display.height > 0 else { scale = 1; break }
            scale = max(scale, min(Double(display.width) / Double(sourceWidth),
                                   Double(display.height) / Double(sourceHeight)))
        }
        scale = min(scale, 1)
        return PixelSize(width: max(1, Int((Double(sourceWidth) * scale).rounded())),
                         height: max(1, Int((Double(sourceHeight) * scale).rounded())))
    }

    /// swscale's algorithm: a plain copy-convert at full size, bilinear for a moderate downscale (a
    /// window), and the cheaper fast bilinear when shrinking to half or less (a mini window), where
    /// it saves about 40 % of the conversion and its softness doesn't show.
    static func flags(from sourceWidth: Int, to width: Int) -> Int32 {
        if width == sourceWidth { return SWS_POINT }
        return width * 2 <= sourceWidth ? SWS_FAST_BILINEAR : SWS_BILINEAR
    }

    /// Converts `frame` to BGRA at `size`.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>, to size: PixelSize, sequence: UInt64) throws(FFmpegError) -> VideoFrame {
        let sourceWidth = Int(frame.pointee.width), sourceHeight = Int(frame.pointee.height)
        let flags = Self.flags(from: sourceWidth, to: size.width)
        context = sws_getCachedContext(context, frame.pointee.width, frame.pointee.height,
                                       AVPixelFormat(frame.pointee.format), Int32(size.width), Int32(size.height),
                                       AV_PIX_FMT_BGRA, flags, nil, nil, nil)
        guard let context else { throw FFmpegError(code: lw_averror(EINVAL), stage: .convert) }
        let buffer = pool.obtain(width: size.width, height: size.height)
        var destination: [UnsafeMutablePointer<UInt8>?] = [buffer.bytes.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
        var destinationStrides: [Int32] = [Int32(buffer.stride), 0, 0, 0]
        let rows = withUnsafePointer(to: &frame.pointee.data) { dataTuple in
            dataTuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { data in
                withUnsafePointer(to: &frame.pointee.linesize) { linesizeTuple in
                    linesizeTuple.withMemoryRebound(to: Int32.self, capacity: 8) { linesize in
                        sws_scale(context, data, linesize, 0, frame.pointee.height, &destination, &destinationStrides)
                    }
                }
            }
        }
        guard rows == Int32(size.height) else { throw FFmpegError(code: rows < 0 ? rows : lw_averror(EINVAL), stage: .convert) }
        return VideoFrame(buffer: buffer, width: size.width, height: size.height,
                          sourceWidth: sourceWidth, sourceHeight: sourceHeight,
                          sequence: sequence, decodedAt: DispatchTime.now().uptimeNanoseconds)
    }
}
