import Foundation
import StreamKit
import TestSupport
import XCTest

/// A camera that answers PLAY with a fresh keyframe is shown at once: the client keeps the packets
/// that follow PLAY (it neither probes them away nor waits for the next scheduled keyframe), so a
/// view opened mid-GOP on a stream with a keyframe every ten seconds is live within a second or two
/// of the stream opening. (The clock-blocks picture comes from an appsrc, which can't seek: without
/// `--keyframe-on-play` GStreamer would give a joining client no keyframe of its own.)
final class KeyframeOnPlayTests: XCTestCase {
    func testTheKeyframeSentOnPlayIsTheFirstFrameShown() throws {
        let server = try TestServer(script: "rtsp_server.py",
                                    arguments: ["--width", "320", "--height", "240", "--fps", "15", "--gop", "10", "--clock-blocks", "--keyframe-on-play"])
        let url = "rtsp://127.0.0.1:\(server.port)/streaming/live/1"
        // Another client keeps the camera's stream running, so the measured view joins mid-GOP.
        let keeper = StreamSession(source: try StreamSource.parse(url))
        defer { keeper.stop() }
        let keeperRecorder = SessionRecorder(session: keeper)
        XCTAssertNotNil(keeperRecorder.waitForFrames(10, timeout: 15), "states \(keeperRecorder.states)")

        let session = StreamSession(source: try StreamSource.parse(url))
        defer { session.stop() }
        let recorder = SessionRecorder(session: session)
        let frame = try XCTUnwrap(recorder.waitForFrames(1, timeout: 15), "states \(recorder.states)")
        SMPTEBars.assertBars(in: frame, intensity: .gstreamer)
        XCTAssertEqual(server.events(named: "keyframe-requested").count, 2, "one keyframe per PLAY")
        let open = try XCTUnwrap(session.stats.timeToOpen), first = try XCTUnwrap(session.stats.timeToFirstFrame)
        XCTAssertLessThan(first - open, 2, "first frame \(first) s, open \(open) s: the next scheduled keyframe is up to 10 s away")
    }
}
