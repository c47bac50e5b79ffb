import CFFmpeg
import Foundation

/// Turns what FFmpeg reported (a return code, the stage, its log lines, whether our deadline fired)
/// into the `StreamFailure` a user can act on, in Layerwatch's words (FFmpeg's own text goes to the
/// debug log only). Kept apart from the session so the rules read as a table.
struct FailureClassifier {
    let source: StreamSource
    let redactor: Redactor

    func classify(_ error: FFmpegError, log: FFmpegLog.Capture, deadlineExpired: Bool, sawPacket: Bool) -> StreamFailure {
        if let failure = error.failure { return failure }
        let code = error.code
        if deadlineExpired { return .timeout }
        if let untrusted = certificateProblem(log) { return .untrustedCertificate(untrusted) }
        if code == lw_averror_http_unauthorized() || code == lw_averror_http_forbidden()
            || log.mentions("401 Unauthorized") || log.mentions("403 Forbidden") {
            return .authRejected
        }
        if code == lw_averror_http_not_found() || log.mentions("404 Not Found") || code == lw_averror(ENOENT) {
            return .notFound
        }
        if code == lw_averror_decoder_not_found() {
            return .unsupportedCodec(error.detail ?? tr("an unknown codec"))
        }
        if error.detail == nil,
           code == lw_averror_http_other_4xx() || code == lw_averror_http_bad_request() || code == lw_averror_http_server_error() {
            // FFmpeg's text for these ("Server returned 4XX Client Error, but not one of 40{0,1,3,4}")
            // is its own; the status the camera answered is what the user can act on.
            // (FFmpeg's RTSP client gives an RTSP status the same codes.)
            let status = Self.httpStatus(in: log) ?? Self.rtspStatus(in: log)
            if case .http = source, status?.hasPrefix("405") == true { return .webRTCAddress }  // a WHEP endpoint takes POST only
            return .protocolError(status.map { String(format: tr("it answered with error %@"), redactor.redact($0)) }
                                  ?? (code == lw_averror_http_server_error() ? tr("it answered with a server error (5xx)")
                                                                             : tr("it refused the request (4xx)")))
        }
        switch -code {
        case ECONNREFUSED: return .refused
        case ETIMEDOUT, EHOSTUNREACH, ENETUNREACH, EHOSTDOWN, EAGAIN: return .timeout
        default: break
        }
        let peerClosed = code == lw_averror_eof() || code == lw_averror(ECONNRESET) || code == lw_averror(EPIPE)
        // Hanging up before any credentials were sent (in the TLS handshake) turns the camera away
        // whatever the code: a closed live view, or another client already connected.
        if peerClosed && error.stage == .connect { return .refused }
        if peerClosed && error.stage == .open {
            if case .bambuJPEG = source {
                // P1/A1 printers answer a wrong access code by hanging up right after the auth packet.
                return .authRejected
            }
            // RTSP sends credentials only after a 401 challenge, which FFmpeg logs and the rule above
            // catches; a hang-up before that is a busy or closed camera, worth retrying.
            return .protocolError(tr("the camera closed the connection at once — another app may be showing it"))
        }
        if code == lw_averror_eof() && sawPacket { return .endOfStream }
        if code == lw_averror_stream_not_found() { return .protocolError(tr("the source has no video stream")) }
        if let detail = error.detail { return .protocolError(redactor.redact(detail)) }
        // FFmpeg's own words (its text for the code, its log's diagnosis) are for the debug log only.
        let said = FFmpegHints.lastDiagnosis(log.lines)
        StreamLog.log(.debug, redactor.redact("FFmpeg: " + error.text + (said.map { ": " + $0 } ?? "")))
        if let status = Self.rtspStatus(in: log) {
            return .protocolError(String(format: tr("it answered with error %@"), redactor.redact(status)))
        }
        return .protocolError(Self.ownWords(for: code))
    }

    /// What an FFmpeg code means to a user, in Layerwatch's words.
    private static func ownWords(for code: Int32) -> String {
        switch code {
        case lw_averror_invaliddata(): return tr("what it sent is not video Layerwatch can read")
        case lw_averror_eof(): return tr("it closed the connection before sending any video")
        case lw_averror(EIO), lw_averror(ECONNRESET), lw_averror(EPIPE): return tr("the connection broke off")
        case lw_averror_protocol_not_found(): return tr("Layerwatch cannot open this kind of address")
        default: return String(format: tr("an unexpected error, number %ld"), Int(code))
        }
    }

    /// The status an RTSP camera refused a request with, as FFmpeg logged it ("454 Session Not
    /// Found" from "method SETUP failed: 454 Session Not Found").
    private static func rtspStatus(in log: FFmpegLog.Capture) -> String? {
        status(in: log, after: "failed: ")
    }

    /// The status line FFmpeg's HTTP client logged, the newest ("405 Method Not Allowed" from
    /// "HTTP error 405 Method Not Allowed").
    private static func httpStatus(in log: FFmpegLog.Capture) -> String? {
        status(in: log, after: "HTTP error ")
    }

    /// What follows `prefix` and a status code (100–599) in the newest log line that has them.
    private static func status(in log: FFmpegLog.Capture, after prefix: String) -> String? {
        for line in log.lines.reversed() {
            guard let range = line.range(of: NSRegularExpression.escapedPattern(for: prefix) + #"[1-5][0-9][0-9]\b"#,
                                         options: .regularExpression) else { continue }
            return line[line.index(range.lowerBound, offsetBy: prefix.count)...].trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return nil
    }

    /// What FFmpeg's TLS layer (GnuTLS) logs when it rejects a certificate; only https:// sources
    /// ask it to verify.
    private func certificateProblem(_ log: FFmpegLog.Capture) -> String? {
        if log.mentions("does not match hostname") {
            return String(format: tr("it was issued for another name than %@"), source.hostName ?? "?")
        }
        if log.mentions("Peer certificate failed verification") || log.mentions("Unable to verify peer certificate") {
            return tr("no certificate authority this computer trusts signed it")
        }
        return nil
    }
}
