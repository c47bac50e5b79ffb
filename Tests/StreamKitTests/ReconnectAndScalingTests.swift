@testable import StreamKit
import XCTest

/// Pure rules of the session: reconnect delays, which failures retry, and the conversion size.
final class ReconnectAndScalingTests: XCTestCase {
    func testBackoffDoublesFromOneSecondAndCapsAtThirty() {
        let backoff = Backoff()
        XCTAssertEqual((1...7).map { backoff.delay(attempt: $0, unit: 0.5) }, [1, 2, 4, 8, 16, 30, 30])
        XCTAssertEqual(backoff.delay(attempt: 100, unit: 0.5), 30)
    }

    func testJitterSpreadsDelaysWithinTwentyPercent() {
        let backoff = Backoff()
        XCTAssertEqual(backoff.delay(attempt: 3, unit: 0), 3.2, accuracy: 1e-9)
        XCTAssertEqual(backoff.delay(attempt: 3, unit: 0.999_999), 4.8, accuracy: 1e-5)
        XCTAssertLessThanOrEqual(backoff.delay(attempt: 9, unit: 0.999_999), 30)
        let delays = Set((0..<50).map { _ in backoff.delay(attempt: 2) })
        XCTAssertGreaterThan(delays.count, 1, "jitter must vary the delay")
        XCTAssertTrue(delays.allSatisfy { (1.6...2.4).contains($0) })
    }

    func testOnlyHealableFailuresRetry() {
        XCTAssertFalse(StreamFailure.authRejected.isRetryable)
        XCTAssertFalse(StreamFailure.notFound.isRetryable)
        XCTAssertFalse(StreamFailure.unsupportedCodec("vp9").isRetryable)
        XCTAssertTrue(StreamFailure.refused.isRetryable)
        XCTAssertTrue(StreamFailure.timeout.isRetryable)
        XCTAssertTrue(StreamFailure.endOfStream.isRetryable)
        XCTAssertTrue(StreamFailure.protocolError("x").isRetryable)
    }

    /// The terms a camera's printer family gives word its failures; without them, any camera's
    /// words speak of its URL.
    func testMessagesSpeakInTheTermsTheCamerasFamilyGives() {
        let terms = CameraTerms(authRejected: "code wrong", refused: "turn it on", timeout: "no answer", rejectedTitle: "",
                                rejectedDetail: "", editCredentials: "")
        XCTAssertEqual(StreamFailure.authRejected.userMessage(in: terms), "code wrong")
        XCTAssertEqual(StreamFailure.refused.userMessage(in: terms), "turn it on")
        XCTAssertEqual(StreamFailure.timeout.userMessage(in: terms), "no answer")
        XCTAssertEqual(StreamFailure.notFound.userMessage(in: terms), StreamFailure.notFound.userMessage)
        XCTAssertEqual(StreamFailure.authRejected.userMessage(in: nil),
                       "The camera refused the user name or password — check them in its URL.")
        XCTAssertEqual(StreamFailure.refused.userMessage(in: nil), "The camera refused the connection — check the address and port.")
        XCTAssertEqual(StreamFailure.timeout.userMessage(in: nil),
                       "The camera did not answer in time — check that it is on and on the same network.")
    }

    func testTargetSizeFitsTheLargestVisibleViewAndNeverUpscales() {
        func target(_ displays: [PixelSize]) -> PixelSize? {
            FrameScaler.targetSize(sourceWidth: 1920, sourceHeight: 1080, displays: displays)
        }
        XCTAssertNil(target([]))
        XCTAssertEqual(target([.full]), PixelSize(width: 1920, height: 1080))
        XCTAssertEqual(target([PixelSize(width: 480, height: 270)]), PixelSize(width: 480, height: 270))
        XCTAssertEqual(target([PixelSize(width: 480, height: 800)]), PixelSize(width: 480, height: 270))
        XCTAssertEqual(target([PixelSize(width: 480, height: 270), PixelSize(width: 960, height: 2000)]),
                       PixelSize(width: 960, height: 540))
        XCTAssertEqual(target([PixelSize(width: 3840, height: 2160)]), PixelSize(width: 1920, height: 1080))
    }
}
