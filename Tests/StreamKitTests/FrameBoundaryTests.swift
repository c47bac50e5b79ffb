import Foundation
import StreamKit
import TestSupport
import XCTest

/// An RTSP H.264 picture is decoded when its last slice is in, not when the next picture begins
/// (FFmpeg's parser would hold every picture back one frame interval), and what comes out is always
/// a whole picture: pictures cut into four slices, with B-frames, with the parameter sets only in
/// the stream, and with NAL units lost on the way. The camera paints its clock at the top and the
/// bottom of each picture; a picture put out early or mixed from two frames shows two values. At 4
/// frames a second a frame's interval is 250 ms, so a picture held back a frame is at least 250 ms
/// old when it arrives, and one shown as its last slice arrives is a few milliseconds old.
final class FrameBoundaryTests: XCTestCase {
    private struct Picture {
        let top: UInt32, bottom: UInt32, age: Double
    }

    /// What one `watch` saw.
    private struct Watched {
        var pictures: [Picture] = []
        var states: [SessionState] = []
        /// The index of the first picture after the reconnect.
        var firstAfterRestart: Int?
        var probedStreamInfo: Bool?
    }

    func testASlicedPictureIsShownWholeWhenItsLastSliceArrives() throws {
        let pictures = try watch(["--slices", "4"], count: 16).pictures
        assertWhole(pictures)
        let ages = pictures.map(\.age).sorted()
        let median = ages[ages.count / 2]
        XCTAssertLessThan(median, 125, "median age \(median) ms of \(ages): a picture waits for the next one (250 ms later)")
    }

    func testPicturesWithBFramesComeWholeAndInOrder() throws {
        let pictures = try watch(["--slices", "4", "--bframes", "2"], count: 16).pictures
        assertWhole(pictures)
        for (earlier, later) in zip(pictures, pictures.dropFirst()) {
            XCTAssertGreaterThan(Int32(bitPattern: later.bottom &- earlier.bottom), 0, "shown out of order: \(pictures.map(\.bottom))")
        }
    }

    func testParameterSetsOnlyInTheStreamNeedNoProbing() throws {
        let watched = try watch(["--slices", "4", "--no-sprop"], count: 8)
        assertWhole(watched.pictures)
        XCTAssertEqual(watched.probedStreamInfo, false, "the SDP names H.264: the decoder finds SPS and PPS in the stream")
    }

    func testLostNALUnitsNeitherEndTheStreamNorShowAPartialPictureAfterAReconnect() throws {
        // One NAL unit in 25 lost (slices, SPS, PPS alike). Pictures keep coming on one connection
        // (a picture that lost its first or last slice is not shown; one that lost a middle slice is
        // concealed, as FFmpeg's parser path does). After a reconnect the first picture shown is whole.
        let watched = try watch(["--slices", "4", "--drop-nal-percent", "4", "--fps", "15"], count: 60, timeout: 30,
                                restartAfter: 30)
        let states = watched.states
        XCTAssertEqual(watched.pictures.count, 60)
        XCTAssertEqual(states.filter { $0 == .live }.count, 2, "live, restarted once, live again: \(states)")
        // Once live, the lossy stream never ends the first connection. (A connection may need a
        // retry before its first picture: the test camera's shared stream can be torn down just as
        // a connection joins it, or be slow to start on a loaded machine, and then that connection
        // gets no picture until its deadline.)
        let firstLive = try XCTUnwrap(states.firstIndex(of: .live))
        let restart = states[firstLive...].firstIndex(of: .connecting) ?? states.endIndex
        XCTAssertFalse(states[firstLive..<restart].contains { $0.isReconnecting }, "\(states)")
        let index = try XCTUnwrap(watched.firstAfterRestart)
        let first = try XCTUnwrap(watched.pictures.indices.contains(index) ? watched.pictures[index] : nil)
        XCTAssertEqual(first.top, first.bottom, "the first picture after the reconnect")
    }

    // MARK: -

    /// Connects to a 4 fps 640×480 camera with `arguments` and records `count` pictures' clocks as
    /// they arrive, reconnecting once after `restartAfter` pictures.
    private func watch(_ arguments: [String], count: Int, timeout: TimeInterval = 20, restartAfter: Int? = nil) throws -> Watched {
        let server = try TestServer(script: "rtsp_server.py", arguments: ["--width", "640", "--height", "480", "--fps", "4",
                                                                          "--clock-blocks", "--top-clock"] + arguments)
        let session = StreamSession(source: try StreamSource.parse("rtsp://127.0.0.1:\(server.port)/streaming/live/1"))
        defer { session.stop() }
        let queue = DispatchQueue(label: "frame-boundary")
        let done = DispatchSemaphore(value: 0)
        var watched = Watched()
        let consumer = session.attach(executor: queue, onState: { state in
            watched.states.append(state)
            if state == .live, watched.states.filter({ $0 == .live }).count == 2 { watched.firstAfterRestart = watched.pictures.count }
        }, onFrame: { frame in
            let bottom = PaintedClock.read(frame)
            watched.pictures.append(Picture(top: PaintedClock.read(frame, strip: .top), bottom: bottom, age: PaintedClock.age(of: bottom)))
            if watched.pictures.count == restartAfter { DispatchQueue.global().async { session.restart() } }
            if watched.pictures.count == count { done.signal() }
        })
        let arrived = done.wait(timeout: .now() + timeout) == .success
        queue.sync { consumer.detach() }
        var result = queue.sync { watched }
        result.probedStreamInfo = session.stats.probedStreamInfo
        XCTAssertTrue(arrived, "\(result.pictures.count) of \(count) pictures in \(timeout) s")
        return result
    }

    private func assertWhole(_ pictures: [Picture], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(pictures.isEmpty, file: file, line: line)
        for picture in pictures where picture.top != picture.bottom {
            XCTFail("top \(picture.top) and bottom \(picture.bottom) of one picture differ", file: file, line: line)
        }
    }
}
