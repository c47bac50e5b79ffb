import CGtk
@testable import CameraKit
import GtkKit
@testable import LayerwatchApp
import StreamKit
import TestSupport
import XCTest

/// The camera surface is the one thing that shows a view of a session: the printer page and the
/// mini window each hold one, on one shared connection, made once, updated as their windows resize,
/// dismantled once when they go.
final class CameraSurfaceTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testPageAndMiniWindowAreTwoSurfacesOnOneConnection() throws {
        let server = try TestServer(script: "rtsp_server.py", arguments: ["--width", "1280", "--height", "720"])
        let registry = SessionRegistry()
        let source = try StreamSource.parse("rtsp://127.0.0.1:\(server.port)/streaming/live/1")
        let session = registry.session(for: source)
        addTeardownBlock { session.stop() }
        try MainActor.assumeIsolated {
            var tab: PageWindow? = PageWindow(name: "Garage", session: session, width: 900, height: 600)
            let page = try XCTUnwrap(tab?.page.surface)
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.state == .live && page.shownFrame != nil })
            var mini: MiniWindow? = MiniWindow(camera: Camera(name: "Garage", source: source),
                                               session: registry.session(for: source), application: nil)
            let small = try XCTUnwrap(mini?.surface)
            mini?.present()
            XCTAssertTrue(iterateMainContext(timeout: 10) { small.state == .live && small.shownFrame != nil })
            let pagePicture = try XCTUnwrap(page.picture), miniPicture = try XCTUnwrap(small.picture)
            let pageWatch = DisposalWatch(pagePicture), miniWatch = DisposalWatch(miniPicture)
            XCTAssertEqual(session.consumerCount, 2, "two surfaces, two consumers")
            XCTAssertEqual(server.events(named: "client").count, 1, "one connection for both")

            // Each window's size reaches its own picture as updates, never as a new picture.
            let before = (page: page.lifecycle.updates, mini: small.lifecycle.updates)
            XCTAssertTrue(WindowSizer(try XCTUnwrap(tab?.window)).resize(width: 700, height: 520))
            // (An AdwWindow's size under Xvfb includes its frame, so WindowSizer can't judge it.)
            gtk_window_set_default_size(gcast(try XCTUnwrap(mini?.window)), 640, 360)
            XCTAssertTrue(iterateMainContext(timeout: 5) { small.lifecycle.updates > before.mini })
            XCTAssertGreaterThan(page.lifecycle.updates, before.page, "the page's new size was an update")
            XCTAssertTrue(page.picture == pagePicture && small.picture == miniPicture, "no picture was remade")
            XCTAssertEqual(page.lifecycle.dismantles + small.lifecycle.dismantles, 0)

            // Both show the session's newest frame, converted for the larger of the two views.
            XCTAssertTrue(iterateMainContext(timeout: 5) {
                guard let shown = page.shownFrame, let alsoShown = small.shownFrame else { return false }
                return shown === alsoShown
            }, "the two views show the same frame")
            let pageWidth = Int(gtk_widget_get_width(pagePicture))
            XCTAssertTrue(iterateMainContext(timeout: 5) { session.stats.outputSize?.width == min(1280, pageWidth) },
                          "converted for the page, the larger view: \(String(describing: session.stats.outputSize))")

            mini?.close()
            XCTAssertTrue(iterateMainContext(timeout: 5) { session.consumerCount == 1 })
            XCTAssertEqual(small.lifecycle.dismantles, 1, "closing the window dismantled its surface once")
            XCTAssertNil(small.picture)
            mini = nil
            XCTAssertTrue(iterateMainContext(timeout: 2) { miniWatch.isDisposed }, "the mini window's picture is released")
            XCTAssertEqual(page.state, .live, "the page streams on")

            tab?.close()
            XCTAssertTrue(iterateMainContext(timeout: 5) { session.consumerCount == 0 })
            page.dismantle()
            XCTAssertEqual(page.lifecycle.dismantles, 1, "a second dismantle does nothing")
            tab = nil
            XCTAssertTrue(iterateMainContext(timeout: 2) { pageWatch.isDisposed }, "the page's picture is released")
            XCTAssertEqual(server.events(named: "client").count, 1, "the printer saw one client throughout")
        }
    }

    func testRetryOnTheStatusCardReconnects() throws {
        var options = SessionOptions()
        options.backoff = Backoff(initial: 30, maximum: 30, jitter: 0)
        let port = closedLoopbackPort()
        let session = try makeSession("rtsp://127.0.0.1:\(port)/streaming/live/1", options: options)
        try MainActor.assumeIsolated {
            let shown = PageWindow(name: "Shelf", session: session)
            defer { shown.close() }
            let status = shown.page.surface!.status
            XCTAssertTrue(iterateMainContext(timeout: 5) { status.buttonText == "Retry Now" }, status.titleText)
            // The camera comes up; the wait is 30 s, so only Retry Now can bring it in time.
            let server = try TestServer(script: "rtsp_server.py", arguments: ["--port", "\(port)"])
            XCTAssertEqual(server.port, port)
            XCTAssertTrue(Bool(gboolean: gtk_widget_activate(status.button)), "the button takes activation")
            XCTAssertTrue(iterateMainContext(timeout: 10) { shown.page.state == .live }, "state: \(shown.page.state)")
            XCTAssertFalse(status.isShown)
        }
    }
}
