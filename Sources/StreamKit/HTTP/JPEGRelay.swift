import CFFmpeg
import Foundation

/// Passes a JPEG camera's pictures on exactly as the camera sent them, without decoding: the engine
/// behind `layerwatch relay`. It reads the packet sources a view's session reads (the Bambu P1/A1
/// transport, an HTTP camera's MJPEG stream or snapshot), on one connection kept open, bound to an
/// interrupt gate with the session's deadlines, and reconnects with the session's backoff after a
/// failure that retrying can mend.
public final class JPEGRelay: @unchecked Sendable {
    /// The camera it relays.
    public let source: StreamSource
    private let options: SessionOptions
    private let gate = InterruptGate()
    private let redactor: Redactor

    /// A relay of `source`; nil when it does not send JPEGs (RTSP, files).
    public init?(source: StreamSource, options: SessionOptions = SessionOptions()) {
        switch source {
        case .bambuJPEG, .http: break
        case .rtsp, .file, .webrtc: return nil
        }
        self.source = source
        self.options = options
        redactor = Redactor(secrets: source.secrets)
    }

    /// Makes `run` return soon (within FFmpeg's poll period), from any thread.
    public func stop() {
        gate.cancel()
    }

    /// Hands each picture's bytes (one whole JPEG) to `send` until `send` returns false or `stop()`
    /// is called (then nil), or the camera fails in a way retrying cannot mend (that failure).
    /// `retrying` hears each other failure and the seconds until the next attempt. Blocks the
    /// calling thread throughout.
    public func run(retrying: (StreamFailure, TimeInterval) -> Void,
                    send: (UnsafeRawBufferPointer) -> Bool) -> StreamFailure? {
        FrameLimits.applyFFmpegAllocationLimit
        let capture = FFmpegLog.Capture(redactor: redactor)
        FFmpegLog.begin(capture)
        defer { FFmpegLog.end() }
        let classifier = FailureClassifier(source: source, redactor: redactor)
        var attempt = 0
        while !gate.isCancelled {
            capture.clear()
            var liveSince: UInt64?
            guard case .failed(let error, let sawPacket) = relayConnection(liveSince: &liveSince, send: send),
                  !gate.isCancelled else { return nil }
            let failure = classifier.classify(error, log: capture, deadlineExpired: gate.deadlineExpired, sawPacket: sawPacket)
            guard failure.isRetryable else { return failure }
            let livedFor = liveSince.map { Double(DispatchTime.now().uptimeNanoseconds - $0) / 1e9 } ?? 0
            if livedFor >= options.backoff.healthyAfter { attempt = 0 }
            attempt += 1
            let delay = options.backoff.delay(attempt: attempt)
            retrying(failure, delay)
            guard gate.wait(seconds: delay) else { return nil }
        }
        return nil
    }

    /// How one connection ended.
    private enum Ending {
        case stopped
        case failed(FFmpegError, sawPacket: Bool)
    }

    /// One connection: open, then pass every packet on until it fails, `send` refuses or the relay
    /// stops. A snapshot URL is fetched again every `snapshotInterval` within the same attempt.
    private func relayConnection(liveSince: inout UInt64?, send: (UnsafeRawBufferPointer) -> Bool) -> Ending {
        guard let packet = av_packet_alloc() else { return .failed(FFmpegError(code: lw_averror(ENOMEM), stage: .read), sawPacket: false) }
        var packetBox: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&packetBox) }
        while true {
            gate.arm(seconds: options.connectDeadline(for: source))
            let input: any PacketSource
            do {
                input = try openPacketSource(source, gate: gate, options: options)
            } catch {
                return .failed(error, sawPacket: false)
            }
            var sawPacket = false
            while true {
                do {
                    try input.read(into: packet)
                } catch {
                    if input.isStillImage && sawPacket { break }
                    return .failed(error, sawPacket: sawPacket)
                }
                sawPacket = true
                if liveSince == nil { liveSince = DispatchTime.now().uptimeNanoseconds }
                gate.extend(seconds: options.stallDeadline(for: source))
                let sent = send(UnsafeRawBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
                av_packet_unref(packet)
                guard sent, !gate.isCancelled else { return .stopped }
            }
            guard gate.wait(seconds: options.snapshotInterval) else { return .stopped }
        }
    }
}
