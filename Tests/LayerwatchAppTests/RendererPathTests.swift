import CGtk
@testable import CameraKit
import GtkKit
@testable import LayerwatchApp
import StreamKit
import TestSupport
import XCTest

/// Frames reach the screen through the path that fits the renderer GTK picked, with the colour bars
/// where the camera put them, read back from what the renderer drew. `make test` runs this class
/// three times: under GTK's own choice (GL on Xvfb's Mesa), with `GSK_RENDERER=cairo`, and with
/// `GSK_RENDERER=gl GDK_DEBUG=gl-gles` (OpenGL ES), and each run checks that it got the renderer it
/// asked for.
final class RendererPathTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testFramesReachTheScreenThroughThisRenderersPath() throws {
        let server = try TestServer(script: "rtsp_server.py", arguments: ["--width", "640", "--height", "480"])
        let session = try makeSession("rtsp://127.0.0.1:\(server.port)/streaming/live/1")
        try MainActor.assumeIsolated {
            let shown = PageWindow(name: "Bench printer", session: session, width: 900, height: 700)
            defer { shown.close() }
            let page = shown.page
            XCTAssertTrue(iterateMainContext(timeout: 15) {
                page.state == .live && page.surface!.shownFrame != nil
            }, "state: \(page.state)")
            let picture = try XCTUnwrap(page.surface!.picture)
            let renderer = try XCTUnwrap(gtk_native_get_renderer(gtk_widget_get_native(picture)))
            let rendererName = String(cString: g_type_name_from_instance(UnsafeMutableRawPointer(renderer).assumingMemoryBound(to: GTypeInstance.self)))
            let wanted = ProcessInfo.processInfo.environment["GSK_RENDERER"]
            if wanted == "cairo" {
                XCTAssertEqual(rendererName, "GskCairoRenderer")
                XCTAssertEqual(page.surface!.framePath, .cairoSurface)
            } else {
                if wanted == "gl" { XCTAssertEqual(rendererName, "GskGLRenderer", "Mesa's GL runs under Xvfb") }
                let gles = ProcessInfo.processInfo.environment["GDK_DEBUG"]?.contains("gl-gles") == true
                XCTAssertEqual(page.surface!.framePath, .texture(gles ? .rgba : .bgra), "on \(rendererName)")
                XCTAssertTrue(iterateMainContext(timeout: 5) { page.surface!.shownFrame?.order == (gles ? .rgba : .bgra) }, "frames converted for it")
            }
            // Contain fit: a 4:3 video centred in the picture.
            let width = Double(gtk_widget_get_width(picture)), height = Double(gtk_widget_get_height(picture))
            let scale = min(width / 640, height / 480)
            let videoWidth = 640 * scale, videoHeight = 480 * scale
            let left = (width - videoWidth) / 2, top = (height - videoHeight) / 2
            let whiteBar = (x: Int(left + 0.5 * videoWidth / 7), y: Int(top + videoHeight / 4))
            var image: RenderedImage?
            // The first frame fades in (CSS transition): wait until the white bar is drawn fully.
            XCTAssertTrue(iterateMainContext(timeout: 5) {
                image = RenderedImage(of: picture)
                return (image?.rgb(x: whiteBar.x, y: whiteBar.y).g ?? 0) > 230
            })
            let rendered = try XCTUnwrap(image)
            XCTAssertEqual(rendered.width, Int(width))
            let expected: [(Int, Int, Int)] = [(255, 255, 255), (255, 255, 0), (0, 255, 255), (0, 255, 0),
                                               (255, 0, 255), (255, 0, 0), (0, 0, 255)]
            for (index, colour) in expected.enumerated() {
                let x = Int(left + (Double(index) + 0.5) * videoWidth / 7), y = Int(top + videoHeight / 4)
                let pixel = rendered.rgb(x: x, y: y)
                XCTAssertTrue(abs(pixel.r - colour.0) < 40 && abs(pixel.g - colour.1) < 40 && abs(pixel.b - colour.2) < 40,
                              "bar \(index) at (\(x), \(y)) is \(pixel), expected \(colour) on \(rendererName)")
            }
        }
    }
}
