import CFFmpeg
import Foundation

/// Keyframe-only decoding for a live session no view has wanted every frame of for `delay` — none
/// shown (a background tab), or only views a picture at each keyframe is enough for (farm tiles past
/// the live ones): full decoding resumes as soon as a view (or a snapshot) wants every frame, and
/// frames are delivered again only from the next keyframe on, so nothing predicted from skipped
/// pictures is ever shown.
struct HiddenDecoding {
    static let delay: UInt64 = 3_000_000_000
    private var hiddenSince: UInt64?
    private var awaitingKeyframe = false

    /// Called before each packet; true when the decoder switched mode.
    mutating func update(decoder: VideoDecoder, wantsEveryFrame: Bool) -> Bool {
        if wantsEveryFrame {
            hiddenSince = nil
            guard decoder.keyframesOnly else { return false }
            decoder.keyframesOnly = false
            awaitingKeyframe = true
            return true
        }
        let now = DispatchTime.now().uptimeNanoseconds
        let since = hiddenSince ?? now
        hiddenSince = since
        guard !decoder.keyframesOnly, now - since >= Self.delay else { return false }
        decoder.keyframesOnly = true
        return true
    }

    /// Whether a decoded frame may be delivered: after resuming, only from a keyframe on.
    mutating func mayShow(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        if awaitingKeyframe && frame.pointee.key_frame == 0 { return false }
        awaitingKeyframe = false
        return true
    }
}
