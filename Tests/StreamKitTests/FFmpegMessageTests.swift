import CFFmpeg
@testable import StreamKit
import XCTest

/// What Layerwatch makes of FFmpeg's log lines: advice dropped, the diagnosis beside it kept.
final class FFmpegHintTests: XCTestCase {
    func testTheDiagnosisSharingALineWithAdviceIsKept() {
        let line = "Could not find codec parameters for stream 0 (Video: h264, none): unspecified size\n"
            + "Consider increasing the value for the 'analyzeduration' (0) and 'probesize' (5000000) options"
        XCTAssertEqual(FFmpegHints.withoutHints(line),
                       "Could not find codec parameters for stream 0 (Video: h264, none): unspecified size")
        XCTAssertEqual(FFmpegHints.lastDiagnosis([line, "Consider increasing the value for the 'probesize' option"]),
                       "Could not find codec parameters for stream 0 (Video: h264, none): unspecified size",
                       "a line of advice alone is passed over")
    }

    func testAdviceInAClauseIsDroppedAndOtherLinesStayAsTheyAre() {
        XCTAssertEqual(FFmpegHints.withoutHints("Stream #0: not enough frames to estimate rate; consider increasing probesize"),
                       "Stream #0: not enough frames to estimate rate")
        XCTAssertNil(FFmpegHints.withoutHints("Consider increasing the value for the 'analyzeduration' (0) option"))
        XCTAssertEqual(FFmpegHints.withoutHints("method DESCRIBE failed: 404 Not Found"), "method DESCRIBE failed: 404 Not Found")
        XCTAssertEqual(FFmpegHints.withoutHints("error at 1.5 s. Frame 3 lost"), "error at 1.5 s. Frame 3 lost")
    }
}

/// A picture size FFmpeg refused is named as what it is: too large, or no size at all.
final class RefusedPictureSizeTests: XCTestCase {
    private func reason(_ line: String) -> StreamFailure? {
        var rejections = PictureRejections()
        do {
            try rejections.decoded(result: lw_averror_invaliddata(), log: [line])
            return nil
        } catch {
            return error.failure
        }
    }

    func testAnInvalidSizeWithinTheLimitIsNotCalledTooLarge() {
        XCTAssertEqual(reason("Picture size 0x480 is invalid"), .undecodablePicture("its picture size, 0×480, is invalid"))
    }

    func testSizesOverTheLimitAreCalledTooLarge() {
        XCTAssertEqual(reason("Picture size 60000x60000 is invalid"),
                       .undecodablePicture("it is 60000×60000 pixels, more than the 7680×4320 Layerwatch decodes"))
        XCTAssertEqual(reason("Picture size 8192x8192 exceeds specified max pixel count 33177600, "
                              + "see the documentation if you wish to increase it"),
                       .undecodablePicture("it is 8192×8192 pixels, more than the 7680×4320 Layerwatch decodes"))
    }
}

/// A failure no rule names is told in Layerwatch's words, never FFmpeg's text for its code.
final class UnnamedFailureWordsTests: XCTestCase {
    func testFFmpegsTextForACodeNeverBecomesTheDetail() throws {
        let classifier = FailureClassifier(source: try StreamSource.parse("rtsp://127.0.0.1/live"), redactor: Redactor(secrets: []))
        let words = { (code: Int32) in
            classifier.classify(FFmpegError(code: code, stage: .read), log: FFmpegLog.Capture(redactor: Redactor(secrets: [])),
                                deadlineExpired: false, sawPacket: false)
        }
        XCTAssertEqual(words(lw_averror_invaliddata()), .protocolError("what it sent is not video Layerwatch can read"))
        XCTAssertEqual(words(lw_averror(EIO)), .protocolError("the connection broke off"))
        XCTAssertEqual(words(lw_averror(ENOSPC)), .protocolError("an unexpected error, number \(lw_averror(ENOSPC))"))
        for code in [lw_averror_invaliddata(), lw_averror(EIO), lw_averror(ENOSPC)] {
            let text = FFmpegError(code: code, stage: .read).text
            XCTAssertFalse(words(code).userMessage.contains(text), text)
        }
    }
}
