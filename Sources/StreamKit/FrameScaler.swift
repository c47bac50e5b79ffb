import CFFmpeg
import Foundation

/// Converts decoded frames to BGRA with swscale, straight to the size the views need, into pooled
/// memory. Its swscale contexts are cached and rebuilt only when a size or format changes.
///
/// Shrinking a 4:2:0 frame goes in two steps: swscale resizes it in its own YUV format into a reused
/// frame, then converts that to BGRA at the same size, where swscale has its SIMD colour converter.
/// In one step swscale would write BGRA through its generic scaled output, which costs about a
/// third more at window size (1080p → 720p) and a quarter more at mini-window size.
final class FrameScaler {
    private var context: OpaquePointer?
    private var resizeContext: OpaquePointer?
    private var resized: UnsafeMutablePointer<AVFrame>?
    private let pool = FramePool()

    deinit {
        sws_freeContext(context)
        sws_freeContext(resizeContext)
        av_frame_free(&resized)
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
        var input = frame
        if (size.width != sourceWidth || size.height != sourceHeight) && frame.pointee.format == AV_PIX_FMT_YUV420P.rawValue {
            input = try resize(frame, to: size, flags: Self.flags(from: sourceWidth, to: size.width))
        }
        context = sws_getCachedContext(context, input.pointee.width, input.pointee.height,
                                       AVPixelFormat(input.pointee.format), Int32(size.width), Int32(size.height),
                                       AV_PIX_FMT_BGRA, Self.flags(from: Int(input.pointee.width), to: size.width), nil, nil, nil)
        guard let context else { throw FFmpegError(code: lw_averror(EINVAL), stage: .convert) }
        let buffer = pool.obtain(width: size.width, height: size.height)
        var destination: [UnsafeMutablePointer<UInt8>?] = [buffer.bytes.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
        var destinationStrides: [Int32] = [Int32(buffer.stride), 0, 0, 0]
        let rows = Self.scale(input, with: context, into: &destination, strides: &destinationStrides)
        guard rows == Int32(size.height) else { throw FFmpegError(code: rows < 0 ? rows : lw_averror(EINVAL), stage: .convert) }
        return VideoFrame(buffer: buffer, width: size.width, height: size.height,
                          sourceWidth: sourceWidth, sourceHeight: sourceHeight,
                          sequence: sequence, decodedAt: DispatchTime.now().uptimeNanoseconds)
    }

    /// `frame` resized to `size` in its own pixel format, in a frame this scaler keeps for reuse.
    private func resize(_ frame: UnsafeMutablePointer<AVFrame>, to size: PixelSize,
                        flags: Int32) throws(FFmpegError) -> UnsafeMutablePointer<AVFrame> {
        let format = AVPixelFormat(frame.pointee.format)
        if let resized, resized.pointee.width != Int32(size.width) || resized.pointee.height != Int32(size.height)
            || resized.pointee.format != format.rawValue {
            av_frame_free(&self.resized)
        }
        if resized == nil {
            guard let fresh = av_frame_alloc() else { throw FFmpegError(code: lw_averror(ENOMEM), stage: .convert) }
            fresh.pointee.width = Int32(size.width)
            fresh.pointee.height = Int32(size.height)
            fresh.pointee.format = format.rawValue
            resized = fresh
            let allocated = av_frame_get_buffer(fresh, 0)
            guard allocated >= 0 else {
                av_frame_free(&resized)
                throw FFmpegError(code: allocated, stage: .convert)
            }
        }
        guard let resized else { throw FFmpegError(code: lw_averror(ENOMEM), stage: .convert) }
        resizeContext = sws_getCachedContext(resizeContext, frame.pointee.width, frame.pointee.height, format,
                                             Int32(size.width), Int32(size.height), format, flags, nil, nil, nil)
        guard let resizeContext else { throw FFmpegError(code: lw_averror(EINVAL), stage: .convert) }
        var planes: [UnsafeMutablePointer<UInt8>?] = [resized.pointee.data.0, resized.pointee.data.1, resized.pointee.data.2, nil]
        var strides: [Int32] = [resized.pointee.linesize.0, resized.pointee.linesize.1, resized.pointee.linesize.2, 0]
        let rows = Self.scale(frame, with: resizeContext, into: &planes, strides: &strides)
        guard rows == Int32(size.height) else { throw FFmpegError(code: rows < 0 ? rows : lw_averror(EINVAL), stage: .convert) }
        return resized
    }

    /// `sws_scale` of all of `frame` into `planes`; the number of rows written, or an error code.
    private static func scale(_ frame: UnsafeMutablePointer<AVFrame>, with context: OpaquePointer,
                              into planes: inout [UnsafeMutablePointer<UInt8>?], strides: inout [Int32]) -> Int32 {
        withUnsafePointer(to: &frame.pointee.data) { dataTuple in
            dataTuple.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { data in
                withUnsafePointer(to: &frame.pointee.linesize) { linesizeTuple in
                    linesizeTuple.withMemoryRebound(to: Int32.self, capacity: 8) { linesize in
                        sws_scale(context, data, linesize, 0, frame.pointee.height, &planes, &strides)
                    }
                }
            }
        }
    }
}
