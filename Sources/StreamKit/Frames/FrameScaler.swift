import CFFmpeg
import CPixels
import Foundation

/// Converts decoded frames to BGRA, straight to the size the views need, into pooled memory, with
/// the stream's colour matrix and range.
///
/// A 4:2:0 frame (every H.264 camera's) stays in YUV until the picture has the view's size, then
/// becomes BGRA at that size; each step is SIMD C in Sources/CPixels, and swscale does only what
/// that can't (other formats such as MJPEG's 4:2:2, CPUs without SSSE3/AVX2):
/// - a box filter divides it by 4 or 2 where that divides it exactly (`lw_box_shrink_plane`, SSE2:
///   a mini window's quarter size in 0.07 ms where swscale's fast bilinear took 0.17, each sample
///   the true mean of its block);
/// - bilinear interpolation resizes what remains (`lw_bilinear_shrink_plane`, SSSE3: 0.22 ms at
///   window size, 1080p → 720p, where swscale's resize took 0.78);
/// - the colour conversion (`lw_yuv420_to_bgra`, AVX2, within one level of the exact matrix) takes
///   0.27 ms at 1080p where swscale's SIMD converter took 0.51.
/// A zoomed view's frames are cut to the part in sight first (a new reference to the same decoded
/// picture, its planes' pointers moved: no pixel is copied), so they are converted from the source's
/// own pixels at the view's size, never scaled down and up again; a part smaller than the view is
/// enlarged by swscale's bilinear resize before the colour conversion.
/// Its swscale contexts are cached and rebuilt only when a size or format changes.
final class FrameScaler {
    private var context: OpaquePointer?
    private var resizeContext: OpaquePointer?
    /// A reference to the frame being converted, cut to a zoomed view's region.
    private var cut = av_frame_alloc()
    private let boxed = ScratchFrame()
    private let resized = ScratchFrame()
    private let pool = FramePool()

    deinit {
        sws_freeContext(context)
        sws_freeContext(resizeContext)
        av_frame_free(&cut)
    }

    /// The size to convert a `sourceWidth`×`sourceHeight` frame (or region) to so that it fills the
    /// largest of `displays` (contain fit): never larger than the source, unless `upscale` (a
    /// zoomed view's region smaller than the view: enlarged here in 4:2:0, before the colour
    /// conversion, so the renderer draws it one to one — on the cairo renderer that cost less than
    /// GTK scaling a small picture up, bench/ZOOM.md). Nil when there is nothing to show.
    static func targetSize(sourceWidth: Int, sourceHeight: Int, displays: [PixelSize], upscale: Bool = false) -> PixelSize? {
        guard sourceWidth > 0, sourceHeight > 0, !displays.isEmpty else { return nil }
        var scale = 0.0
        for display in displays {
            guard display.width > 0, display.height > 0 else { scale = 1; break }
            scale = max(scale, min(Double(display.width) / Double(sourceWidth),
                                   Double(display.height) / Double(sourceHeight)))
        }
        if !upscale { scale = min(scale, 1) }
        return PixelSize(width: max(1, Int((Double(sourceWidth) * scale).rounded())),
                         height: max(1, Int((Double(sourceHeight) * scale).rounded())))
    }

    /// The box filter's factor on the way from a `sourceWidth`×`sourceHeight` 4:2:0 frame to `size`:
    /// 4 or 2, the largest that stays at or above `size` and divides the frame and its half-size
    /// chroma exactly. Nil when neither does.
    static func boxFactor(sourceWidth: Int, sourceHeight: Int, to size: PixelSize) -> Int? {
        [4, 2].first { factor in
            sourceWidth >= factor * size.width && sourceHeight >= factor * size.height
                && sourceWidth % (2 * factor) == 0 && sourceHeight % (2 * factor) == 0
        }
    }

    /// swscale's algorithm where it resizes: bilinear for a moderate downscale the C bilinear shrink
    /// couldn't take (a CPU without SSSE3, a 4:2:2 frame), and the cheaper fast bilinear when
    /// shrinking to half or less a picture the box filter couldn't take (a size it doesn't divide, a
    /// thumbnail); a plain copy-convert at full size.
    static func flags(from sourceWidth: Int, to width: Int) -> Int32 {
        if width == sourceWidth { return SWS_POINT }
        return width * 2 <= sourceWidth ? SWS_FAST_BILINEAR : SWS_BILINEAR
    }

    /// Converts `frame`, or its `region` of it, to BGRA (or `order`) at `size`, with the frame's
    /// colour matrix and range.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>, region: PixelRect? = nil, to size: PixelSize, order: PixelOrder = .bgra,
                 sequence: UInt64) throws(FFmpegError) -> VideoFrame {
        let sourceWidth = Int(frame.pointee.width), sourceHeight = Int(frame.pointee.height)
        let whole = PixelRect.whole(width: sourceWidth, height: sourceHeight)
        let region = region ?? whole
        let shown = region == whole ? frame : try cut(frame, to: region)
        defer { if shown != frame { av_frame_unref(shown) } }
        let input = try shrunk(shown, to: size)
        let colours = ColourDetails(of: frame)
        let buffer = pool.obtain(width: size.width, height: size.height)
        if !colourConvert(input, with: colours, order: order, into: buffer) {
            context = sws_getCachedContext(context, input.pointee.width, input.pointee.height,
                                           AVPixelFormat(input.pointee.format), Int32(size.width), Int32(size.height),
                                           order == .rgba ? AV_PIX_FMT_RGBA : AV_PIX_FMT_BGRA, Self.flags(from: Int(input.pointee.width), to: size.width), nil, nil, nil)
            guard let context else { throw FFmpegError(code: lw_averror(EINVAL), stage: .convert) }
            colours.apply(to: context)
            var destination: [UnsafeMutablePointer<UInt8>?] = [buffer.bytes.assumingMemoryBound(to: UInt8.self), nil, nil, nil]
            var destinationStrides: [Int32] = [Int32(buffer.stride), 0, 0, 0]
            let rows = Self.scale(input, with: context, into: &destination, strides: &destinationStrides)
            guard rows == Int32(size.height) else { throw FFmpegError(code: rows < 0 ? rows : lw_averror(EINVAL), stage: .convert) }
        }
        return VideoFrame(buffer: buffer, width: size.width, height: size.height, order: order,
                          sourceWidth: sourceWidth, sourceHeight: sourceHeight, region: region,
                          sequence: sequence, decodedAt: DispatchTime.now().uptimeNanoseconds)
    }

    /// A new reference to `frame` showing only `region` (inside the frame, on even coordinates for
    /// 4:2:0): FFmpeg moves each plane's pointer to the region's corner, whatever the pixel format.
    private func cut(_ frame: UnsafeMutablePointer<AVFrame>, to region: PixelRect) throws(FFmpegError) -> UnsafeMutablePointer<AVFrame> {
        guard let cut, av_frame_ref(cut, frame) >= 0 else { throw FFmpegError(code: lw_averror(ENOMEM), stage: .convert) }
        cut.pointee.crop_left += region.x
        cut.pointee.crop_top += region.y
        cut.pointee.crop_right += Int(frame.pointee.width) - region.x - region.width
        cut.pointee.crop_bottom += Int(frame.pointee.height) - region.y - region.height
        let result = av_frame_apply_cropping(cut, Int32(AV_FRAME_CROP_UNALIGNED))
        guard result >= 0 else {
            av_frame_unref(cut)
            throw FFmpegError(code: result, stage: .convert)
        }
        return cut
    }

    /// Whether `frame` is planar 4:2:0, video or full range: the layout the C steps take.
    private static func isPlanar420(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        frame.pointee.format == AV_PIX_FMT_YUV420P.rawValue || frame.pointee.format == AV_PIX_FMT_YUVJ420P.rawValue
    }

    /// Converts 4:2:0 `input`, already at the buffer's size, with `lw_yuv420_to_bgra` (AVX2); false
    /// for another format or CPU, for swscale to.
    private func colourConvert(_ input: UnsafeMutablePointer<AVFrame>, with colours: ColourDetails, order: PixelOrder,
                               into buffer: PixelBuffer) -> Bool {
        guard Self.isPlanar420(input) else { return false }
        var fixed = colours.fixedPointMatrix
        let frame = input.pointee
        return lw_yuv420_to_bgra(frame.data.0, Int(frame.linesize.0), frame.data.1, Int(frame.linesize.1),
                                 frame.data.2, Int(frame.linesize.2), buffer.bytes.assumingMemoryBound(to: UInt8.self),
                                 buffer.stride, frame.width, frame.height, &fixed, order == .rgba ? 1 : 0) == 0
    }

    /// `frame` brought down to `size` in 4:2:0 (video or full range), when it is a larger 4:2:0 frame:
    /// box-shrunk where the filter can, then resized for what remains. Anything else is returned as
    /// it is.
    private func shrunk(_ frame: UnsafeMutablePointer<AVFrame>, to size: PixelSize) throws(FFmpegError) -> UnsafeMutablePointer<AVFrame> {
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        guard size.width != width || size.height != height, Self.isPlanar420(frame) else { return frame }
        var input = frame
        if let factor = Self.boxFactor(sourceWidth: width, sourceHeight: height, to: size) {
            input = try boxShrink(frame, by: factor)
        }
        if input.pointee.width != Int32(size.width) || input.pointee.height != Int32(size.height) {
            input = try resize(input, to: size)
        }
        return input
    }

    /// `frame` (4:2:0, its sides multiples of 2 × `factor`) shrunk by `factor` with the box filter.
    private func boxShrink(_ frame: UnsafeMutablePointer<AVFrame>, by factor: Int) throws(FFmpegError) -> UnsafeMutablePointer<AVFrame> {
        let width = Int(frame.pointee.width) / factor, height = Int(frame.pointee.height) / factor
        let output = try boxed.shaped(width: width, height: height)
        let source = frame.pointee, target = output.pointee
        let planes = [(source.data.0, source.linesize.0, target.data.0, target.linesize.0, width, height),
                      (source.data.1, source.linesize.1, target.data.1, target.linesize.1, width / 2, height / 2),
                      (source.data.2, source.linesize.2, target.data.2, target.linesize.2, width / 2, height / 2)]
        for (from, fromStride, to, toStride, planeWidth, planeHeight) in planes {
            guard lw_box_shrink_plane(from, Int(fromStride), to, Int(toStride), Int32(planeWidth), Int32(planeHeight), Int32(factor)) == 0 else {
                throw FFmpegError(code: lw_averror(ENOMEM), stage: .convert)
            }
        }
        return output
    }

    /// 4:2:0 `frame` resized to `size`, in a frame kept for reuse: by `lw_bilinear_shrink_plane` when
    /// it can (shrinking to more than half, SSSE3), else by swscale. For swscale both sides are
    /// called video-range 4:2:0, whatever the range, so it copies the numbers across and the range
    /// is applied once, by the colour conversion.
    private func resize(_ frame: UnsafeMutablePointer<AVFrame>, to size: PixelSize) throws(FFmpegError) -> UnsafeMutablePointer<AVFrame> {
        let output = try resized.shaped(width: size.width, height: size.height)
        if Self.bilinearShrink(frame, into: output) { return output }
        resizeContext = sws_getCachedContext(resizeContext, frame.pointee.width, frame.pointee.height, AV_PIX_FMT_YUV420P,
                                             Int32(size.width), Int32(size.height), AV_PIX_FMT_YUV420P,
                                             Self.flags(from: Int(frame.pointee.width), to: size.width), nil, nil, nil)
        guard let resizeContext else { throw FFmpegError(code: lw_averror(EINVAL), stage: .convert) }
        var planes: [UnsafeMutablePointer<UInt8>?] = [output.pointee.data.0, output.pointee.data.1, output.pointee.data.2, nil]
        var strides: [Int32] = [output.pointee.linesize.0, output.pointee.linesize.1, output.pointee.linesize.2, 0]
        let rows = Self.scale(frame, with: resizeContext, into: &planes, strides: &strides)
        guard rows == Int32(size.height) else { throw FFmpegError(code: rows < 0 ? rows : lw_averror(EINVAL), stage: .convert) }
        return output
    }

    /// Resizes the three planes of 4:2:0 `frame` into `output` with the SSSE3 bilinear shrink; false
    /// when that can't do it (another CPU, a shrink to half or less), for swscale to.
    private static func bilinearShrink(_ frame: UnsafeMutablePointer<AVFrame>, into output: UnsafeMutablePointer<AVFrame>) -> Bool {
        let source = frame.pointee, target = output.pointee
        let width = Int32(source.width), height = Int32(source.height), toWidth = target.width, toHeight = target.height
        let planes = [(source.data.0, source.linesize.0, width, height, target.data.0, target.linesize.0, toWidth, toHeight),
                      (source.data.1, source.linesize.1, (width + 1) / 2, (height + 1) / 2,
                       target.data.1, target.linesize.1, (toWidth + 1) / 2, (toHeight + 1) / 2),
                      (source.data.2, source.linesize.2, (width + 1) / 2, (height + 1) / 2,
                       target.data.2, target.linesize.2, (toWidth + 1) / 2, (toHeight + 1) / 2)]
        return planes.allSatisfy { from, fromStride, fromWidth, fromHeight, to, toStride, planeWidth, planeHeight in
            lw_bilinear_shrink_plane(from, Int(fromStride), fromWidth, fromHeight, to, Int(toStride), planeWidth, planeHeight) == 0
        }
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
