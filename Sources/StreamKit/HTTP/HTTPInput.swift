import CFFmpeg
import Foundation

/// An HTTP(S) camera as a packet source: an MJPEG stream (`multipart/x-mixed-replace`) read part by
/// part, or a JPEG snapshot. Layerwatch reads these two formats itself instead of letting FFmpeg
/// guess a demuxer from whatever the server sends, so a "camera" answering with an HLS playlist or
/// an SDP body is refused instead of making Layerwatch fetch from another host or open UDP ports,
/// and no part or body is buffered beyond `FrameLimits.maximumBytes`. FFmpeg's http protocol still
/// does the HTTP (auth, redirects, chunked bodies) through AVIO, bound to the interrupt gate, and
/// may only use http, https, tcp and tls; https certificates are verified.
final class HTTPInput: ArrivalTimedSource {
    var isStillImage: Bool { parts == nil }
    private let bytes: AVIOBytes
    /// The stream's parts; nil for a JPEG snapshot.
    private var parts: MultipartReader?
    private var snapshotRead = false
    /// The decoder this input made, asked at the end of a snapshot whether its picture decoded.
    private weak var decoder: VideoDecoder?

    /// Connects, sends the request and reads the response's headers.
    init(source: StreamSource, gate: InterruptGate, options: SessionOptions) throws(FFmpegError) {
        // The timeout is a backstop behind the interrupt gate's deadlines (see MediaInput).
        let protocolOptions = Self.protocolOptions(url: source.ffmpegURL,
                                                   timeoutMicroseconds: options.socketTimeoutMicroseconds(for: source),
                                                   authorities: options.trustedCertificateAuthorities)
        bytes = try AVIOBytes.open(source.ffmpegURL, flags: AVIO_FLAG_READ, options: protocolOptions, interrupting: gate, stage: .open)
        let type = Self.contentType(bytes.io)
        switch Self.body(contentType: type) {
        case .multipart(let boundary):
            parts = MultipartReader(bytes: bytes, boundary: boundary)
        case .jpeg:
            parts = nil
        case nil:
            let detail = type.isEmpty
                ? tr("the camera's answer does not say what it is; an MJPEG stream or a JPEG picture was expected")
                : String(format: tr("the camera answered with %@, which is neither an MJPEG stream nor a JPEG picture"),
                         String(type.prefix(80)))
            throw FFmpegError.protocolViolation(detail, stage: .open)
        }
    }

    func makeDecoder(threads: Int) throws(FFmpegError) -> VideoDecoder {
        let made = try VideoDecoder.mjpeg(timeBase: timeBase, threads: threads)
        decoder = made
        return made
    }

    /// Reads the next JPEG into `packet`. A snapshot gives one; its end is an undecodable picture
    /// rather than a plain end when that picture gave nothing.
    func read(into packet: UnsafeMutablePointer<AVPacket>) throws(FFmpegError) {
        if parts != nil {
            try parts!.next(into: packet)
        } else {
            if snapshotRead { throw decoder?.undecodable ?? FFmpegError(code: lw_averror_eof(), stage: .read) }
            try readSnapshot(into: packet)
            snapshotRead = true
        }
        stampArrival(packet)
    }

    /// The whole body of a snapshot response, refused as soon as it (or its Content-Length) passes
    /// the limit.
    private func readSnapshot(into packet: UnsafeMutablePointer<AVPacket>) throws(FFmpegError) {
        let body = try bytes.whole(limit: FrameLimits.maximumBytes, tooLarge: MultipartReader.frameTooLarge)
        guard !body.isEmpty else { throw FFmpegError(code: lw_averror_eof(), stage: .read) }
        try packet.copyData(from: body)
    }

    /// What a response's Content-Type makes of its body.
    private enum Body {
        case multipart(boundary: String?)
        case jpeg
    }

    private static func body(contentType: String) -> Body? {
        let fields = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let type = fields.first?.lowercased() else { return nil }
        if type.hasPrefix("multipart/") {
            let boundary = fields.dropFirst().first { $0.lowercased().hasPrefix("boundary=") }
                .map { $0.dropFirst("boundary=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            return .multipart(boundary: boundary?.isEmpty == false ? boundary : nil)
        }
        return ["image/jpeg", "image/jpg", "image/pjpeg"].contains(type) ? .jpeg : nil
    }

    /// The response's Content-Type, as FFmpeg's http protocol exports it ("" when there is none).
    private static func contentType(_ io: UnsafeMutablePointer<AVIOContext>) -> String {
        var value: UnsafeMutablePointer<UInt8>?
        guard av_opt_get(io, "mime_type", AV_OPT_SEARCH_CHILDREN, &value) >= 0, let value else { return "" }
        defer { av_free(value) }
        return String(cString: value)
    }

    /// What FFmpeg's http protocol is told for every camera request: no reconnects or seeks behind the caller's back, only http(s) over tcp/tls, and for
    /// https a certificate that chains to a trusted authority and names the host.
    static func protocolOptions(url: String, timeoutMicroseconds: String, authorities: String?) -> [(String, String)] {
        var list = [("timeout", timeoutMicroseconds), ("reconnect", "0"),
                    ("seekable", "0"), ("protocol_whitelist", "http,https,tcp,tls")]
        if url.lowercased().hasPrefix("https:") { list += certificateChecks(authorities: authorities) }
        return list
    }

    /// FFmpeg's tls options for an https request, as a browser checks: the certificate must chain
    /// to a trusted authority and name the host (FFmpeg's GnuTLS backend checks both when
    /// tls_verify is set). Without `authorities` (a ca_file) it trusts the system's store.
    static func certificateChecks(authorities: String?) -> [(String, String)] {
        [("tls_verify", "1")] + (authorities.map { [("ca_file", $0)] } ?? [])
    }

}
