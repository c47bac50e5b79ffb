@testable import LayerwatchApp
import PrinterKit
import StreamKit
import XCTest

/// The window's subtitle follows one rule for every kind of printer and camera: what it is (the
/// Bambu model, the family, "Camera"), then the host — never the transport ("HTTP", "WebRTC") for
/// some and a bare address for others.
final class CameraSubtitleTests: XCTestCase {
    func testEveryKindSaysWhatItIsThenWhereItIs() throws {
        let mjpeg = PrinterCamera(url: "http://192.168.1.20/webcam/?action=stream")
        let cases: [(Printer, String)] = [
            (Printer(name: "X1C", kind: .bambuRTSPS(.x1c), host: "192.168.1.5", serial: "00M00A000000000", accessCode: "12345678"),
             "X1 Carbon · 192.168.1.5"),
            (Printer(name: "A1", kind: .bambuJPEG(nil), host: "192.168.1.6", serial: "03900A000000000", accessCode: "12345678"),
             "Bambu Lab · 192.168.1.6"),
            (Printer(name: "Voron", kind: .klipper, host: "192.168.1.20", cameras: [mjpeg]), "Klipper · 192.168.1.20"),
            (Printer(name: "Prusa", kind: .octoprint, host: "192.168.1.21",
                     cameras: [PrinterCamera(url: "http://192.168.1.21/webcam/?action=stream")]), "OctoPrint · 192.168.1.21"),
            (Printer(name: "K2", kind: .creality(.k2), host: "192.168.1.30"), "Creality · 192.168.1.30"),
            (Printer(name: "Door", kind: .generic, cameras: [PrinterCamera(url: "webrtc:http://192.168.1.40:1984/api/webrtc?src=door")]),
             "Camera · 192.168.1.40"),
            (Printer(name: "Shelf", kind: .generic, cameras: [PrinterCamera(url: "rtsp://192.168.1.41/stream")]), "Camera · 192.168.1.41"),
        ]
        for (printer, expected) in cases {
            let camera = try XCTUnwrap(try PrinterCameras(printer: printer).cameras.first, printer.name)
            XCTAssertEqual(camera.subtitle, expected, printer.name)
        }
        let cameraless = try PrinterCameras(printer: Printer(name: "Voron", kind: .klipper, host: "192.168.1.20"))
        XCTAssertEqual(cameraless.subtitle, "Klipper · 192.168.1.20", "a printer without a camera says the same")
        XCTAssertEqual(cameraless.cameras, [])
        let byURL = Camera(name: "10.0.0.7", source: .http(URL(string: "http://10.0.0.7:8080/?action=stream")!))
        XCTAssertEqual(byURL.subtitle, "Camera · 10.0.0.7", "a camera opened by its address")
    }
}
