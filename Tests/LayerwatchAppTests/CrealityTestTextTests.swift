@testable import LayerwatchApp
import PrinterKit
@testable import StreamKit
import XCTest

/// What Test Connection says of a Creality printer: its status line for each answer the printer
/// may give (a model, WebRTC firmware, neither) and the Model it chose, then a camera's row.
final class CrealityTestTextTests: XCTestCase {
    func testTheStatusLineSaysWhatThePrinterSaidAndWhatWasChosen() {
        XCTAssertEqual(CrealityTestText.status(model: .k1Max, webRTC: false, chosen: nil),
                       "Status connected: the printer says it is a Creality K1 Max.")
        XCTAssertEqual(CrealityTestText.status(model: .k1C, webRTC: true, chosen: .k2),
                       "Status connected: the printer says it is a Creality K1C whose camera streams over WebRTC. "
                       + "Model set to “K2 or Hi”: its camera is WebRTC on port 8000.")
        XCTAssertEqual(CrealityTestText.status(model: nil, webRTC: true, chosen: nil),
                       "Status connected: the printer says its camera streams over WebRTC.")
        XCTAssertEqual(CrealityTestText.status(model: nil, webRTC: false, chosen: nil),
                       "Status connected, but the printer did not say which model it is: the Model chosen is kept.")
    }

    func testACameraRowSaysWhatItsProbeFound() {
        var report = StreamProbe.Report(url: "http://10.0.0.6:8080/?action=stream", ok: true, frames: 2, transitions: [])
        report.codec = "mjpeg"
        report.width = 1280
        report.height = 720
        report.timeToFirstFrame = 0.42
        XCTAssertEqual(ConnectionTestText.describe(report), "Connected: MJPEG 1280×720. First picture after 0.4 s.")
        XCTAssertEqual(ConnectionTestText.describe(nil), "Connected — this camera is streaming in its tab right now.")
    }
}
