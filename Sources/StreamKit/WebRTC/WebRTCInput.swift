import CFFmpeg
import Foundation

/// A WebRTC camera as a packet source: signalling over HTTP(S) in the style its `webrtc:` URL names
/// (`WebRTCSignalling`), the camera's description checked (`WebRTCDescription`), then one
/// receive-only `WebRTCPeer` whose H.264 access units (or VP8 frames) go to the one FFmpeg decoder
/// as whole pictures, stamped with the camera's timing. ICE gathers only on the address this host
/// reaches the camera from and keeps only the camera's own candidates. A silent peer ends through the
/// session's stall deadline (5 s by default), so the session reconnects with its backoff; a WHEP
/// session is DELETEd when the input closes.
final class WebRTCInput: PacketSource {
    let isStillImage = false
    let probedStreamInfo = false
    /// Microseconds of the pipeline's running time.
    let timeBase = AVRational(num: 1, den: 1_000_000)
    private let gate: InterruptGate
    private let peer: WebRTCPeer
    private let codec: AVCodecID
    /// The WHEP session to DELETE when done (on the camera's own origin only).
    private let session: URL?
    private let secrets: [String]
    private var sawUnit = false
    /// The last packet's time, so times only go forward.
    private var lastTime = Int64.min + 1

    init(url: URL, source: StreamSource, gate: InterruptGate, options: SessionOptions) throws(FFmpegError) {
        guard let style = WebRTCSignalling(url: url), let host = URLOrigin(url)?.host else {
            throw FFmpegError(code: lw_averror(EINVAL), stage: .connect)
        }
        // No address, or no route to it: the camera cannot be reached (and ICE never gathers on
        // every interface for want of one).
        guard let camera = WebRTCPeer.resolve(host), let localAddress = WebRTCPeer.routeSource(to: camera) else {
            throw FFmpegError(code: lw_averror(EHOSTUNREACH), stage: .connect)
        }
        self.gate = gate
        self.secrets = source.secrets
        peer = try WebRTCPeer(localAddress: localAddress)
        let exchange = WebRTCExchange(url: url, secrets: secrets, gate: gate, timeout: options.connectDeadline(for: source))
        let local: String, remote: WebRTCDescription
        switch style {
        case .cameraStreamer:
            let offer = try exchange.requestOffer()
            remote = try WebRTCDescription(offer.sdp, cameraAddress: camera)
            local = try peer.answer(offer: remote.text, interrupting: gate)
            try exchange.sendAnswer(local, id: offer.id)
            session = nil
            codec = WebRTCDescription.firstCodec(of: local) ?? remote.codec
        case .whep, .go2rtc, .creality:
            local = try peer.makeOffer(interrupting: gate)
            let answer = try exchange.trade(offer: local, style: style)
            do {
                remote = try WebRTCDescription(answer.sdp, cameraAddress: camera, answering: local)
                try peer.take(answer: remote.text)
            } catch {
                Self.end(answer.session, secrets: secrets)
                throw error
            }
            session = answer.session
            codec = remote.codec
        }
        StreamLog.log(.debug, "WebRTC \(style.rawValue) to \(source): local candidates "
                      + "[\(WebRTCDescription.candidateAddresses(of: local))], remote \(remote.candidates)")
    }

    deinit {
        Self.end(session, secrets: secrets)
    }

    /// DELETEs a WHEP session, if there is one (also when its answer was refused).
    private static func end(_ session: URL?, secrets: [String]) {
        guard let session else { return }
        _ = try? HTTPFetch.send(session, method: "DELETE", body: nil, secrets: secrets, timeout: 2, interrupting: nil)
    }

    func makeDecoder(threads: Int) throws(FFmpegError) -> VideoDecoder {
        try VideoDecoder.bare(codec, timeBase: timeBase, threads: threads)
    }

    /// H.264 goes through the recorder's access-unit collector, which takes the in-band parameter
    /// sets a Matroska header needs (each packet, a whole access unit, is one picture to it).
    var recordedStream: RecordedStream {
        RecordedStream(codecID: codec, timeBase: timeBase, packets: codec == AV_CODEC_ID_H264 ? .h264NALUnits : .wholePictures,
                       parameters: nil)
    }

    func rewind() throws(FFmpegError) {
        throw FFmpegError(code: lw_averror(ESPIPE), stage: .read)
    }

    /// Waits for the next access unit, in 100 ms slices between which the gate (stop, stall
    /// deadline) is asked.
    func read(into packet: UnsafeMutablePointer<AVPacket>) throws(FFmpegError) {
        while true {
            if gate.shouldInterrupt() {
                if gate.deadlineExpired, !sawUnit, !peer.iceConnected { throw Self.iceFailed }
                throw FFmpegError(code: lw_averror_exit(), stage: .read)
            }
            switch try peer.pull(milliseconds: 100) {
            case .nothing: continue
            case .iceFailed: throw Self.iceFailed
            case .unit(let bytes, let keyframe, let microseconds):
                sawUnit = true
                try packet.copyData(from: bytes)
                // The camera's own timing where it is known (a recording keeps its pace even when a
                // keyframe and the picture after it arrive together); views show units as they come.
                let time = microseconds ?? Int64(DispatchTime.now().uptimeNanoseconds / 1000)
                packet.pointee.pts = max(time, lastTime + 1)
                packet.pointee.dts = packet.pointee.pts
                lastTime = packet.pointee.pts
                if keyframe { packet.pointee.flags |= AV_PKT_FLAG_KEY }
                return
            }
        }
    }

    private static var iceFailed: FFmpegError {
        FFmpegError(code: lw_averror(EHOSTUNREACH), stage: .read, failure: .mediaUnreachable)
    }
}
