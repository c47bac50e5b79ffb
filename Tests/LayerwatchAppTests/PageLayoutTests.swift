import CGtk
@testable import CameraKit
import GtkKit
@testable import LayerwatchApp
import StreamKit
import TestSupport
import XCTest

/// The camera page keeps its video widget's identity while the window flips between wide and tall:
/// only the control bar moves, and the printer's single connection is never dropped.
final class PageLayoutTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testTwentyResizesMoveTheControlsNeverTheVideo() throws {
        let server = try TestServer(script: "rtsp_server.py", arguments: ["--width", "1280", "--height", "720"])
        let session = try makeSession("rtsp://127.0.0.1:\(server.port)/streaming/live/1")
        try MainActor.assumeIsolated {
            let shown = PageWindow(name: "Flip", session: session, width: 700, height: 900)
            defer { shown.close() }
            let page = shown.page
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.state == .live })
            let picture = try XCTUnwrap(page.surface!.picture)
            let parent = gtk_widget_get_parent(picture)
            let watch = DisposalWatch(picture)
            var unmaps = 0
            connectSignal(picture, "unmap") { unmaps += 1 }
            let sizer = WindowSizer(shown.window)
            var states: [SessionState] = []
            let observer = session.attach(executor: MainLoopExecutor.main, visible: false,
                                          onState: { states.append($0) }, onFrame: { _ in })
            defer { observer.detach() }

            for flip in 0..<20 {
                let wide = flip % 2 == 0
                XCTAssertTrue(sizer.resize(width: wide ? 1500 : 700, height: wide ? 600 : 900), "resize \(flip)")
                let expected = wide ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL
                XCTAssertEqual(page.controls.orientation, expected, "the bar moved on flip \(flip)")
                XCTAssertEqual(page.layout.arrangement, wide ? .beside : .below)
                XCTAssertTrue(page.surface!.picture == picture, "same GtkPicture on flip \(flip)")
                XCTAssertTrue(gtk_widget_get_parent(picture) == parent, "same parent on flip \(flip)")
            }
            XCTAssertFalse(watch.isDisposed)
            XCTAssertEqual(unmaps, 0, "the video was never unmapped")
            XCTAssertEqual(states.filter { $0 != .live }, [], "no reconnect, no state change")
            XCTAssertEqual(session.state, .live)
            XCTAssertEqual(server.events(named: "client").count, 1, "the printer saw one connection throughout")
        }
    }
}
