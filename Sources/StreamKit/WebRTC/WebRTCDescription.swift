import CFFmpeg
import Foundation

/// A camera's session description (its answer, or its offer), checked and trimmed before webrtcbin
/// sees it: it must be SDP with a video section in a codec FFmpeg decodes here (H.264, VP8), and only
/// a few ICE candidates at the camera's own address, over UDP, are kept — so a hostile or confused
/// camera cannot make Layerwatch send a packet to any other host, nor to many ports of its own.
/// Creality's answers are repaired the same way for everyone: payload formats that were not
/// offered, and a second (x-google) fmtp line for a payload type, are dropped.
struct WebRTCDescription {
    /// The most candidates kept for each component, the camera's highest-priority ones: at its one
    /// address a camera needs one, and a second is a spare (a fixed ICE port beside an ephemeral
    /// one, say). Every candidate kept draws connectivity checks (STUN) at each attempt, so a camera
    /// that lists dozens of ports on its own host gets checks at two of them, not at all.
    static let candidatesPerComponent = 2

    /// The description as webrtcbin gets it.
    let text: String
    /// The codec of the video section's first payload format Layerwatch decodes.
    let codec: AVCodecID
    /// The candidate addresses kept (each the camera's).
    let candidates: [String]

    /// Checks `text` from a camera at `cameraAddress` (numeric). `offered`: the payload types of
    /// Layerwatch's offer, when `text` answers it.
    init(_ text: String, cameraAddress: String, offered: Set<Int>? = nil) throws(FFmpegError) {
        let lines = text.split(whereSeparator: \.isNewline).map(String.init)
        guard lines.first == "v=0" else { throw Self.violation(tr("the camera's WebRTC answer is not a session description")) }
        var kept: [String] = []
        var candidates: [String] = []
        var inVideo = false
        var videoPayloads: [Int] = []
        var dropped = Set<Int>()
        var fmtpSeen = Set<Int>()
        var rtpmaps: [Int: String] = [:]
        var sawVideo = false
        let keptCandidates = Self.keptCandidates(lines, cameraAddress: cameraAddress)
        // Keeps a payload's fmtp lines after its first unless they are the x-google duplicate.
        let fmtpLines = lines.filter { $0.hasPrefix("a=fmtp:") }
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("m=") {
                inVideo = line.hasPrefix("m=video ")
                if inVideo {
                    sawVideo = true
                    var fields = line.split(separator: " ").map(String.init)
                    let formats = fields.dropFirst(3).compactMap { Int($0) }
                    let wanted = formats.filter { offered?.contains($0) ?? true }
                    dropped = Set(formats).subtracting(wanted)
                    videoPayloads = wanted
                    fields = Array(fields.prefix(3)) + wanted.map(String.init)
                    kept.append(fields.joined(separator: " "))
                    continue
                }
            }
            if line.hasPrefix("a=candidate:") {
                guard keptCandidates.contains(index) else { continue }
                candidates.append(cameraAddress)
                kept.append(line)
                continue
            }
            if inVideo, let payload = Self.payload(of: line) {
                if dropped.contains(payload) { continue }
                if line.hasPrefix("a=rtpmap:") {
                    rtpmaps[payload] = line.split(separator: " ").dropFirst().first.map { String($0.split(separator: "/")[0]).uppercased() }
                }
                if line.hasPrefix("a=fmtp:") {
                    let others = fmtpLines.filter { Self.payload(of: $0) == payload }
                    if fmtpSeen.contains(payload) || (others.count > 1 && line.contains("x-google")) { continue }
                    fmtpSeen.insert(payload)
                }
            }
            kept.append(line)
        }
        guard sawVideo else { throw Self.violation(tr("the camera's WebRTC answer has no video")) }
        let decodable = videoPayloads.compactMap { rtpmaps[$0] }.compactMap(Self.codecs)
        guard let codec = decodable.first else {
            let named = videoPayloads.compactMap { rtpmaps[$0] }
            throw FFmpegError(code: lw_averror_decoder_not_found(), stage: .open,
                              failure: .unsupportedCodec(named.isEmpty ? tr("no video codec Layerwatch was offered") : named.joined(separator: ", ")))
        }
        guard !candidates.isEmpty else {
            throw Self.violation(String(format: tr("the camera's WebRTC answer has no ICE candidate at its own address %@"), cameraAddress))
        }
        self.text = kept.joined(separator: "\r\n") + "\r\n"
        self.codec = codec
        self.candidates = candidates
    }

    /// The codec of the first payload format of `sdp`'s video section (Layerwatch's own answer).
    static func firstCodec(of sdp: String) -> AVCodecID? {
        let lines = sdp.split(whereSeparator: \.isNewline)
        guard let video = lines.first(where: { $0.hasPrefix("m=video ") }),
              let first = video.split(separator: " ").dropFirst(3).first else { return nil }
        let map = lines.first { $0.hasPrefix("a=rtpmap:\(first) ") }
        return map.flatMap { $0.split(separator: " ").dropFirst().first }.map { String($0.split(separator: "/")[0]).uppercased() }
            .flatMap(codecs)
    }

    /// The candidate addresses (`a=candidate:` lines) of `sdp`.
    static func candidateAddresses(of sdp: String) -> [String] {
        sdp.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("a=candidate:") }.compactMap {
            let fields = $0.split(separator: " ")
            return fields.count > 4 ? String(fields[4]) : nil
        }
    }

    private static func codecs(_ name: String) -> AVCodecID? {
        switch name {
        case "H264": return AV_CODEC_ID_H264
        case "VP8": return AV_CODEC_ID_VP8
        default: return nil
        }
    }

    /// The indices in `lines` of the candidates kept: UDP ones at the camera's own address, the
    /// `candidatesPerComponent` of highest priority for each component of each media section (the
    /// first listed when priorities tie).
    private static func keptCandidates(_ lines: [String], cameraAddress: String) -> Set<Int> {
        var section = 0
        var own: [(index: Int, sectionAndComponent: String, priority: UInt32)] = []
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("m=") { section += 1 }
            guard line.hasPrefix("a=candidate:") else { continue }
            let fields = line.split(separator: " ")
            guard fields.count >= 8, fields[2].lowercased() == "udp", fields[4] == cameraAddress else { continue }
            own.append((index, "\(section) \(fields[1])", UInt32(fields[3]) ?? 0))
        }
        return Set(Dictionary(grouping: own, by: \.sectionAndComponent).values.flatMap { candidates in
            candidates.sorted { $0.priority != $1.priority ? $0.priority > $1.priority : $0.index < $1.index }
                .prefix(candidatesPerComponent).map(\.index)
        })
    }

    /// The payload type an `a=rtpmap:`, `a=fmtp:` or `a=rtcp-fb:` line is about.
    private static func payload(of line: String) -> Int? {
        for prefix in ["a=rtpmap:", "a=fmtp:", "a=rtcp-fb:"] where line.hasPrefix(prefix) {
            return Int(line.dropFirst(prefix.count).prefix { $0.isNumber })
        }
        return nil
    }

    private static func violation(_ detail: String) -> FFmpegError {
        .protocolViolation(detail, stage: .open)
    }
}
