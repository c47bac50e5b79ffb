import CGtk
import CameraKit
import Foundation
import GtkKit
import LayerwatchApp
import StreamKit

/// One view of one session as the app would have it: every delivered frame becomes a
/// GdkMemoryTexture over the pooled pixels (the app's `FrameTextures.wrap`, no copy), held until the
/// next one replaces it; the probe reads the clock blocks back from the same pixels. `copying`
/// measures the path the app avoids: each frame copied into fresh memory for its texture.
final class ViewProbe: @unchecked Sendable {
    private let copying: Bool
    private let lock = NSLock()
    private let attachedAt = DispatchTime.now().uptimeNanoseconds
    private var windowStart: UInt64?
    private var texture: GObjectRef<OpaquePointer>?
    private(set) var liveAfter: Double?
    private(set) var firstFrame: (seconds: Double, ageMilliseconds: Double)?
    private(set) var ages = AgeSeries()
    private(set) var shownInWindow = 0

    init(copying: Bool = false) {
        self.copying = copying
    }

    func state(_ state: SessionState) {
        guard state == .live else { return }
        let elapsed = seconds(since: attachedAt)
        lock.withLock { if liveAfter == nil { liveAfter = elapsed } }
    }

    func frame(_ frame: VideoFrame) {
        let wrapped = GObjectRef(adopting: copying ? Self.copiedTexture(frame) : FrameTextures.wrap(frame))
        let age = ClockBlocks.age(of: ClockBlocks.read(frame))
        let elapsed = seconds(since: attachedAt)
        lock.withLock {
            texture = wrapped
            if firstFrame == nil { firstFrame = (elapsed, age) }
            if let windowStart {
                ages.add(at: seconds(since: windowStart), milliseconds: age)
                shownInWindow += 1
            }
        }
    }

    /// A texture over a copy of the frame's pixels (`g_bytes_new` copies into new memory).
    private static func copiedTexture(_ frame: VideoFrame) -> OpaquePointer {
        let bytes = g_bytes_new(frame.pixels, gsize(frame.byteCount))
        defer { g_bytes_unref(bytes) }
        return FrameTextures.texture(over: bytes!, shapedLike: frame)
    }

    /// Starts (true) or ends (false) the steady window.
    func record(_ on: Bool) {
        lock.withLock { windowStart = on ? DispatchTime.now().uptimeNanoseconds : nil }
    }

    /// Seconds to the first frame, or to going live when no frame is shown (a hidden view).
    var timeToFirstFrame: Double? { lock.withLock { firstFrame?.seconds ?? liveAfter } }

    private func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}
