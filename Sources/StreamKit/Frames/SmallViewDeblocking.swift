import CFFmpeg

/// No deblocking while every visible view is at most a third of the source's width (a mini window),
/// where its absence doesn't show; on again for a larger view or a snapshot. Pictures decoded
/// without it drift slightly from the encoder's until the next keyframe, so a full-resolution
/// snapshot is taken only from a frame decoded with the filter since a keyframe.
struct SmallViewDeblocking {
    /// The widest view, as a fraction of the source's width, that still skips the filter.
    static func isSmall(viewWidth: Int, sourceWidth: Int) -> Bool { viewWidth * 3 <= sourceWidth }

    private var cleanSinceKeyframe = true

    /// Called before each packet; true when the decoder switched mode.
    mutating func update(decoder: VideoDecoder, skip: Bool) -> Bool {
        guard decoder.skipsLoopFilter != skip else { return false }
        decoder.skipsLoopFilter = skip
        cleanSinceKeyframe = false
        return true
    }

    /// Whether `frame` is the encoder's picture: decoded with the filter, from a keyframe on.
    mutating func isClean(_ frame: UnsafeMutablePointer<AVFrame>, decoder: VideoDecoder) -> Bool {
        guard !decoder.skipsLoopFilter else { return false }
        if frame.pointee.key_frame != 0 { cleanSinceKeyframe = true }
        return cleanSinceKeyframe
    }
}
