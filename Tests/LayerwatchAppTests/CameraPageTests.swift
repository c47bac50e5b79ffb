import CGtk
@testable import CameraKit
import GtkKit
@testable import LayerwatchApp
@testable import StreamKit
import TestSupport
import XCTest

/// The camera page under Xvfb against real servers: the CameraView's lifecycle is make once / update
/// often / dismantle once, hidden pages convert nothing. (Frames reaching the screen: RendererPathTests.)
final class CameraPageTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testCameraViewIsMadeOnceUpdatedOftenAndDismantledOnceOnClose() throws {
        let server = try TestServer(script: "rtsp_server.py")
        let session = try makeSession("rtsp://127.0.0.1:\(server.port)/streaming/live/1")
        try MainActor.assumeIsolated {
            let pictureWatch = try showResizeAndClose(session: session, server: server)
            XCTAssertTrue(iterateMainContext(timeout: 5) { session.consumerCount == 0 })
            XCTAssertEqual(session.state, .stopped)
            XCTAssertNotNil(server.waitFor("client-closed", timeout: 5), "dismantle closed the connection")
            XCTAssertTrue(iterateMainContext(timeout: 2) { pictureWatch.isDisposed }, "the picture is released")
        }
    }

    /// Shows a page, resizes its window a few times and closes it; returns a watch on its picture.
    @MainActor
    private func showResizeAndClose(session: StreamSession, server: TestServer) throws -> DisposalWatch {
        let shown = PageWindow(name: "Lifecycle", session: session)
        let page = shown.page
        XCTAssertTrue(iterateMainContext(timeout: 15) { page.state == .live })
        let picture = try XCTUnwrap(page.surface!.picture)
        let pictureWatch = DisposalWatch(picture)
        XCTAssertEqual(session.consumerCount, 1, "one coordinator attached once")

        let sizer = WindowSizer(shown.window)
        var outputSizes: Set<PixelSize> = []
        for (width, height) in [(500, 400), (700, 500), (420, 360), (900, 650)] {
            XCTAssertTrue(sizer.resize(width: Int32(width), height: Int32(height)))
            let shownSize = PixelSize(width: Int(gtk_widget_get_width(picture)), height: Int(gtk_widget_get_height(picture)))
            let expected = FrameScaler.targetSize(sourceWidth: 640, sourceHeight: 480, displays: [shownSize])
            XCTAssertTrue(iterateMainContext(timeout: 3) { session.stats.outputSize == expected },
                          "frames are converted to the picture's size \(shownSize): got \(String(describing: session.stats.outputSize)), want \(String(describing: expected))")
            if let expected { outputSizes.insert(expected) }
            XCTAssertTrue(page.surface!.picture == picture, "update never rebuilds the picture")
        }
        XCTAssertGreaterThanOrEqual(outputSizes.count, 3, "display-size updates reached the session: \(outputSizes)")
        XCTAssertEqual(server.events(named: "client").count, 1)

        shown.close()
        page.dismantle()
        XCTAssertEqual(session.consumerCount, 0, "a second dismantle is harmless")
        return pictureWatch
    }

    func testHiddenPageConvertsNoPixels() throws {
        let clip = try TestClips.smpteBars(width: 320, height: 240, fps: 25, seconds: 2)
        let session = StreamSession(source: .file(path: clip.path, loop: true))
        addTeardownBlock { session.stop() }
        MainActor.assumeIsolated {
            let shown = PageWindow(name: "Hidden", session: session)
            defer { shown.close() }
            XCTAssertTrue(iterateMainContext(timeout: 10) { session.stats.convertedFrames >= 3 })
            gtk_widget_set_visible(shown.page.widget, 0)
            XCTAssertTrue(iterateMainContext(timeout: 2) { gtk_widget_get_mapped(shown.page.surface!.picture) == 0 })
            let converted = session.stats.convertedFrames, decoded = session.stats.decodedFrames
            XCTAssertTrue(iterateMainContext(timeout: 5) { session.stats.decodedFrames >= decoded + 10 })
            XCTAssertLessThanOrEqual(session.stats.convertedFrames, converted + 1, "decoding goes on, conversion stops")
            gtk_widget_set_visible(shown.page.widget, 1)
            XCTAssertTrue(iterateMainContext(timeout: 5) { session.stats.convertedFrames >= converted + 5 })
        }
    }

    func testSlowCameraShowsTheAgeOfItsPicture() throws {
        let server = try TestServer(script: "bambu_jpeg_server.py", arguments: ["--fps", "0.3", "--width", "640", "--height", "360"])
        let session = try makeSession("bambu-jpeg://127.0.0.1:\(server.port)?code=12345678")
        MainActor.assumeIsolated {
            let shown = PageWindow(name: "P1S", session: session)
            defer { shown.close() }
            XCTAssertTrue(iterateMainContext(timeout: 10) { shown.page.state == .live })
            XCTAssertTrue(iterateMainContext(timeout: 5) {
                guard let text = shown.page.surface!.frameAgeText, text.hasSuffix(" s ago"),
                      let seconds = Int(text.dropLast(6)) else { return false }
                return seconds >= 1
            }, "a P1/A1 picture says how old it is: \(String(describing: shown.page.surface!.frameAgeText))")
        }
    }
}
