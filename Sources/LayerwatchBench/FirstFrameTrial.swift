import Foundation
import StreamKit

/// Layerwatch's time to first frame when a view opens in a running app: a fresh session, one
/// visible full-size view, until its first frame has become a texture.
enum FirstFrameTrial {
    static func run(url: String) throws -> Measurement {
        let session = StreamSession(source: try StreamSource.parse(url))
        let probe = ViewProbe()
        let shown = DispatchSemaphore(value: 0)
        let consumer = session.attach(executor: DispatchQueue(label: "bench.trial"), displaySize: ViewMode.full.displaySize,
                                      onState: probe.state, onFrame: { frame in
                                          let first = probe.firstFrame == nil
                                          probe.frame(frame)
                                          if first { shown.signal() }
                                      })
        defer {
            consumer.detach()
            session.stop()
        }
        guard shown.wait(timeout: .now() + 10) == .success, let first = probe.firstFrame else {
            throw BenchError("Layerwatch: no frame within 10 s (state \(session.state))")
        }
        var result = Measurement(client: "Layerwatch", view: "first frame", streams: 1)
        result.firstFrameSeconds = first.seconds
        result.firstFrameWorstSeconds = first.seconds
        result.firstFrameAgeMilliseconds = first.ageMilliseconds
        result.openSeconds = session.stats.timeToOpen
        return result
    }
}
