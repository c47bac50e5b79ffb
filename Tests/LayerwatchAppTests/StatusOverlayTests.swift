import CGtk
@testable import CameraKit
import GtkKit
@testable import LayerwatchApp
import StreamKit
import TestSupport
import XCTest

/// The overlays follow the states that real servers drive.
final class StatusOverlayTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testWrongAccessCodeShowsTheRejectedCard() throws {
        let server = try TestServer(script: "rtsp_server.py", arguments: ["--tls", "--user", "bblp", "--password", "12345678"])
        let session = try makeSession("rtsps://bblp:BADCODE1@127.0.0.1:\(server.port)/streaming/live/1")
        MainActor.assumeIsolated {
            let shown = PageWindow(name: "X1 Carbon", session: session)
            defer { shown.close() }
            let status = shown.page.surface!.status
            XCTAssertTrue(iterateMainContext(timeout: 10) { status.titleText == "Access code rejected" }, status.titleText)
            XCTAssertTrue(status.isShown)
            XCTAssertEqual(status.buttonText, "Retry")
            XCTAssertTrue(status.detailText.contains("access code"), status.detailText)
            XCTAssertFalse(status.detailText.contains("BADCODE1") || status.titleText.contains("BADCODE1"))
            iterateFrames(10)  // drawn, for a screenshot
            ScreenCapture.saveIfAsked(as: "overlay-access-code-rejected")
        }
    }

    func testWrongPasswordOfAnotherCameraSpeaksOfItsURL() throws {
        let server = try TestServer(script: "rtsp_server.py", arguments: ["--user", "admin", "--password", "s3cret"])
        let session = try makeSession("rtsp://admin:wrong-one@127.0.0.1:\(server.port)/streaming/live/1")
        MainActor.assumeIsolated {
            let shown = PageWindow(name: "Garage", session: session)
            defer { shown.close() }
            let status = shown.page.surface!.status
            XCTAssertTrue(iterateMainContext(timeout: 10) { status.titleText == "Can't show Garage" }, status.titleText)
            XCTAssertEqual(status.detailText, "The camera refused the user name or password — check them in its URL.")
            XCTAssertFalse(status.detailText.contains("wrong-one"))
        }
    }

    func testRefusedHostShowsACountdownWithRetryNow() throws {
        var options = SessionOptions()
        options.backoff = Backoff(initial: 4, maximum: 4, jitter: 0)
        let session = try makeSession("rtsp://127.0.0.1:\(closedLoopbackPort())/live", options: options)
        MainActor.assumeIsolated {
            let shown = PageWindow(name: "P2S", session: session)
            defer { shown.close() }
            let status = shown.page.surface!.status
            XCTAssertTrue(iterateMainContext(timeout: 5) { status.titleText.hasPrefix("Reconnecting in") }, status.titleText)
            let first = status.titleText
            XCTAssertTrue(iterateMainContext(timeout: 3) { status.titleText != first }, "the countdown ticks")
            XCTAssertEqual(status.buttonText, "Retry Now")
            XCTAssertTrue(status.detailText.contains("The camera refused the connection"), status.detailText)
            XCTAssertFalse(status.detailText.contains("LAN Only Liveview"), "not a Bambu printer's camera: \(status.detailText)")
        }
    }

    func testConnectingThenLiveHidesTheCardAndShowsTheBadge() throws {
        let server = try TestServer(script: "rtsp_server.py")
        let session = try makeSession("rtsp://127.0.0.1:\(server.port)/streaming/live/1")
        MainActor.assumeIsolated {
            let shown = PageWindow(name: "H2D", session: session)
            defer { shown.close() }
            let status = shown.page.surface!.status
            XCTAssertEqual(status.titleText, "Connecting to H2D…")
            XCTAssertTrue(iterateMainContext(timeout: 15) { shown.page.state == .live })
            XCTAssertFalse(status.isShown)
            XCTAssertTrue(shown.page.surface!.isLiveBadgeShown)
        }
    }
}
