import CFFmpeg

/// A negative FFmpeg return code and the stage it came from, before classification.
struct FFmpegError: Error {
    /// Where in a connection the error came: the classifier reads a hang-up differently in each.
    enum Stage {
        /// Reaching the peer, before any credentials were sent (TCP connect, TLS handshake).
        case connect
        /// Opening the stream, credentials included: a peer hanging up here rejected them.
        case open
        case read, decode, convert
    }

    let code: Int32
    let stage: Stage
    /// What FFmpeg's code alone doesn't say (the codec that has no decoder, what a peer got wrong).
    var detail: String? = nil
    /// The failure itself, when the code that threw already knows it better than any rule could
    /// (a frame over the size limit, a refused redirect, an undecodable picture).
    var failure: StreamFailure? = nil

    /// FFmpeg's own text for the code.
    var text: String {
        var buffer = [CChar](repeating: 0, count: 256)
        av_strerror(code, &buffer, buffer.count)
        return String(cString: buffer)
    }
}

extension FFmpegError {
    /// The error for a peer that broke its protocol (a malformed MJPEG part, a P1 frame header no
    /// JPEG can follow, an answer that is not a camera's): a protocol error saying how.
    static func protocolViolation(_ detail: String, stage: Stage = .read) -> FFmpegError {
        FFmpegError(code: lw_averror_invaliddata(), stage: stage, detail: detail, failure: .protocolError(detail))
    }

    /// This error, told as a protocol violation saying `detail` when it is the end of input (the
    /// peer closed the connection); an interruption stays one, for the classifier to read against
    /// its deadlines.
    func told(ifEnd detail: @autoclosure () -> String) -> FFmpegError {
        code == lw_averror_eof() ? .protocolViolation(detail(), stage: stage) : self
    }
}
