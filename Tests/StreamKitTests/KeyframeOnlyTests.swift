import Foundation
import StreamKit
import TestSupport
import XCTest

/// A live session no view has shown for a few seconds decodes keyframes only; when a view becomes
/// visible again it decodes everything, and the first frame it gets is a clean keyframe: every
/// frame shown carries a readable, current, increasing wall clock (a frame predicted from skipped
/// pictures would garble the clock strip, which changes every frame).
final class KeyframeOnlyTests: XCTestCase {
    func testHiddenSessionDecodesKeyframesOnlyAndResumesWithoutBrokenFrames() throws {
        let server = try TestServer(script: "rtsp_server.py",
                                    arguments: ["--width", "320", "--height", "240", "--fps", "15", "--clock-blocks"])
        let session = StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(server.port)/streaming/live/1"))
        let clocks = ClockRecorder()
        let consumer = session.attach(executor: DispatchQueue(label: "keyframe-only.view"),
                                      onState: { _ in }, onFrame: clocks.record)
        defer { session.stop() }
        XCTAssertTrue(clocks.waitForCount(3, timeout: 15), "state \(session.state)")

        consumer.update(displaySize: .full, visible: false)
        XCTAssertFalse(session.stats.keyframesOnly, "not at once: a tab switch must not cost a keyframe wait")
        XCTAssertTrue(waitUntil(timeout: 6) { session.stats.keyframesOnly }, "after a few seconds hidden")
        let hiddenRate = decodeRate(of: session, over: 3)
        XCTAssertLessThanOrEqual(hiddenRate, 2.5, "hidden for over 3 s: one keyframe a second, not 15 frames")

        let shownBefore = clocks.count
        consumer.update(displaySize: .full, visible: true)
        XCTAssertTrue(clocks.waitForCount(shownBefore + 20, timeout: 6), "frames come back after the next keyframe")
        XCTAssertFalse(session.stats.keyframesOnly)
        let resumed = clocks.readings.dropFirst(shownBefore)
        for (reading, next) in zip(resumed, resumed.dropFirst()) {
            XCTAssertTrue((-50...2000).contains(reading.age), "a shown frame has a current clock: \(reading)")
            XCTAssertLessThanOrEqual(reading.painted, next.painted, "clocks only move forward")
        }
        XCTAssertGreaterThanOrEqual(decodeRate(of: session, over: 2), 10, "full decoding again")
    }

    func testViewsThatAKeyframeSufficesGetKeyframesUntilAViewWantsEveryFrame() throws {
        let server = try TestServer(script: "rtsp_server.py",
                                    arguments: ["--width", "320", "--height", "240", "--fps", "15", "--clock-blocks"])
        let session = StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(server.port)/streaming/live/1"))
        let tileClocks = ClockRecorder()
        let tile = session.attach(executor: DispatchQueue(label: "keyframes-suffice.tile"),
                                  onState: { _ in }, onFrame: tileClocks.record)
        defer { session.stop() }
        XCTAssertTrue(tileClocks.waitForCount(3, timeout: 15), "state \(session.state)")

        // A farm tile past the live ones: shown, but a picture at each keyframe is enough.
        tile.update(displaySize: PixelSize(width: 160, height: 120), visible: true, keyframesSuffice: true)
        XCTAssertTrue(waitUntil(timeout: 6) { session.stats.keyframesOnly }, "keyframes only, a few seconds on")
        let shownBefore = tileClocks.count
        XCTAssertLessThanOrEqual(decodeRate(of: session, over: 3), 2.5, "one keyframe a second, not 15 frames")
        XCTAssertTrue(tileClocks.waitForCount(shownBefore + 2, timeout: 3), "the tile still gets each keyframe")

        // The printer's tab is shown: every frame again, for both, from a clean keyframe on.
        let tabClocks = ClockRecorder()
        let tab = session.attach(executor: DispatchQueue(label: "keyframes-suffice.tab"), onState: { _ in }, onFrame: tabClocks.record)
        XCTAssertTrue(tabClocks.waitForCount(20, timeout: 6), "the tab gets every frame")
        XCTAssertFalse(session.stats.keyframesOnly)
        XCTAssertGreaterThanOrEqual(decodeRate(of: session, over: 2), 10, "full decoding again")
        for reading in tabClocks.readings + tileClocks.readings.dropFirst(shownBefore) {
            XCTAssertTrue((-50...2000).contains(reading.age), "every frame shown has a current clock: \(reading)")
        }
        tab.detach()
    }

    /// Frames decoded per second over a window: a rate needs its window of time.
    private func decodeRate(of session: StreamSession, over seconds: Double) -> Double {
        let before = session.stats.decodedFrames
        Thread.sleep(forTimeInterval: seconds)
        return Double(session.stats.decodedFrames - before) / seconds
    }
}

/// Reads the clock `rtsp_server.py --clock-blocks` paints (ms mod 2³², 32 blocks, MSB left) from
/// every delivered frame.
private final class ClockRecorder: @unchecked Sendable {
    struct Reading { let painted: UInt32; let age: Double }
    private let condition = NSCondition()
    private var recorded: [Reading] = []

    var readings: [Reading] { condition.withLock { recorded } }
    var count: Int { condition.withLock { recorded.count } }

    func record(_ frame: VideoFrame) {
        let y = frame.height - frame.height / 16
        var painted: UInt32 = 0
        for bit in 0..<32 {
            painted = painted << 1 | (frame.rgb(x: Int((Double(bit) + 0.5) * Double(frame.width) / 32), y: y).g > 128 ? 1 : 0)
        }
        let now = UInt32(truncatingIfNeeded: Int64(Date().timeIntervalSince1970 * 1000))
        condition.withLock {
            recorded.append(Reading(painted: painted, age: Double(Int32(bitPattern: now &- painted))))
            condition.broadcast()
        }
    }

    func waitForCount(_ count: Int, timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        return condition.withLock {
            while recorded.count < count {
                guard condition.wait(until: deadline) else { return recorded.count >= count }
            }
            return true
        }
    }
}
