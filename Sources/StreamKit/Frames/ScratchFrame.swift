import CFFmpeg

/// A 4:2:0 frame a scaler writes an intermediate picture into, kept from one frame to the next: it
/// is reallocated only when the size it is asked for changes.
final class ScratchFrame {
    private var frame: UnsafeMutablePointer<AVFrame>?

    deinit { av_frame_free(&frame) }

    /// The kept frame, shaped `width`×`height`.
    func shaped(width: Int, height: Int) throws(FFmpegError) -> UnsafeMutablePointer<AVFrame> {
        if let frame, frame.pointee.width == Int32(width), frame.pointee.height == Int32(height) {
            return frame
        }
        av_frame_free(&frame)
        guard let fresh = av_frame_alloc() else { throw FFmpegError(code: lw_averror(ENOMEM), stage: .convert) }
        fresh.pointee.width = Int32(width)
        fresh.pointee.height = Int32(height)
        fresh.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame = fresh
        let allocated = av_frame_get_buffer(fresh, 0)
        guard allocated >= 0 else {
            av_frame_free(&frame)
            throw FFmpegError(code: allocated, stage: .convert)
        }
        return fresh
    }
}
