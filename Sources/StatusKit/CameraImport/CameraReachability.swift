import Foundation
import StreamKit

/// Whether something answers where each camera a host listed streams: a TCP connection to its
/// address and port, all at once, each within `timeout`. A host may list a camera that cannot be
/// reached from here — Moonraker's `webrtc-camerastreamer` at a path relative to the host, port 80,
/// where no web interface runs — and the add dialog lists it without choosing it.
public enum CameraReachability {
    /// How long one connection may take.
    public static let timeout: TimeInterval = 2

    /// `cameras` with `unreachable` set on each one that could be opened (`refusal` nil) but
    /// where nothing answered.
    public static func marked(_ cameras: [ImportedCamera], stop: StopSignal) -> [ImportedCamera] {
        let reasons = Reasons(count: cameras.count)
        let probes = DispatchGroup()
        for (index, camera) in cameras.enumerated() {
            guard camera.refusal == nil, let url = camera.url, let address = NetworkCamera.address(of: url) else { continue }
            // A thread each, not a pool's few: a list of silent cameras costs one timeout, not one each.
            probes.enter()
            Thread {
                defer { probes.leave() }
                do throws(StatusFailure) {
                    _ = try TCPStream(host: address.host, port: address.port, timeout: timeout, stop: stop)
                } catch {
                    reasons.set(index, error == .refused ? tr("nothing answers there") : tr("no answer in time"))
                }
            }.start()
        }
        probes.wait()
        return cameras.enumerated().map { index, camera in
            var marked = camera
            marked.unreachable = reasons.reason(at: index)
            return marked
        }
    }

    /// The reasons found so far, set from the probes' threads.
    private final class Reasons: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [String?]

        init(count: Int) { list = Array(repeating: nil, count: count) }

        func set(_ index: Int, _ reason: String) { lock.withLock { list[index] = reason } }

        func reason(at index: Int) -> String? { lock.withLock { list[index] } }
    }
}
