import CFFmpeg
import Foundation

/// Tells a camera whose pictures can never be decoded from a stream that merely had a glitch or was
/// joined between keyframes: a picture larger than the decoder allows is final at once; otherwise
/// a few keyframes in a row that each gave no picture are. Without it such a camera looked silent
/// and ended, after the connect deadline, as "did not answer in time".
struct PictureRejections {
    /// Keyframes in a row that gave no picture before the next one came.
    static let tolerated = 2

    private var failedKeyframes = 0
    private var keyframePending = false
    /// Why the newest packet was rejected, in the user's words (FFmpeg's lines are in the debug log).
    private var reason: String?

    /// A picture came out: whatever failed before was a glitch.
    mutating func pictureDecoded() {
        failedKeyframes = 0
        keyframePending = false
        reason = nil
    }

    /// Notes a packet about to be decoded; throws when the keyframe before it gave no picture and
    /// that has now happened more often than a glitch would.
    mutating func sending(keyframe: Bool) throws(FFmpegError) {
        guard keyframe else { return }
        if keyframePending { failedKeyframes += 1 }
        keyframePending = true
        if failedKeyframes > Self.tolerated { throw undecodable }
    }

    /// Notes what FFmpeg reported while a packet was decoded: its error code (0 for none) and its
    /// log lines. Throws at once when they say the picture's size was refused: larger than
    /// Layerwatch decodes, or no size a picture can have (0×480 from a corrupt header).
    mutating func decoded(result: Int32, log: ArraySlice<String>) throws(FFmpegError) {
        if let size = log.lazy.compactMap(Self.refusedPictureSize).first {
            reason = size.width > FrameLimits.maximumWidth || size.height > FrameLimits.maximumHeight
                ? String(format: tr("it is %ld×%ld pixels, more than the %ld×%ld Layerwatch decodes"),
                         size.width, size.height, FrameLimits.maximumWidth, FrameLimits.maximumHeight)
                : String(format: tr("its picture size, %ld×%ld, is invalid"), size.width, size.height)
            throw undecodable
        }
        if result < 0 || FFmpegHints.lastDiagnosis(log) != nil {
            reason = tr("the picture data is damaged")
        }
    }

    /// The error for a keyframe that gave no picture, to report when the input ends there (a
    /// snapshot); nil when a picture came after the last keyframe.
    var failure: FFmpegError? {
        keyframePending ? undecodable : nil
    }

    private var undecodable: FFmpegError {
        let detail = reason ?? tr("no picture came out of it")
        return FFmpegError(code: lw_averror_invaliddata(), stage: .decode, detail: detail,
                           failure: .undecodablePicture(detail))
    }

    /// The size in FFmpeg's "Picture size WxH exceeds…" / "Picture size WxH is invalid" lines.
    private static func refusedPictureSize(_ line: String) -> PixelSize? {
        guard let range = line.range(of: #"Picture size \d+x\d+"#, options: .regularExpression) else { return nil }
        let numbers = line[range].dropFirst("Picture size ".count).split(separator: "x").compactMap { Int($0) }
        guard numbers.count == 2 else { return nil }
        return PixelSize(width: numbers[0], height: numbers[1])
    }
}
