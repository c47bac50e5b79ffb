import Foundation
@testable import PrinterKit
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// A camera-streamer camera's MJPEG fallback in `printers.json`: saved beside its URL as a reference
/// relative to it (no password of its own, with or without a keyring), read back, absent from files
/// written before it, and given to the stream the printer opens.
final class CameraFallbackConfigTests: XCTestCase {
    private let voronID = UUID(), cameraID = UUID()

    private func voron(url: String, fallback: String?) -> Printer {
        Printer(id: voronID, name: "Voron", kind: .klipper, host: "10.0.0.5",
                cameras: [PrinterCamera(id: cameraID, name: "Nozzle", url: url, mjpegFallback: fallback, rotation: 90)])
    }

    func testTheFallbackRoundTripsAndReachesTheStream() throws {
        let directory = try makeTemporaryDirectory()
        let printer = voron(url: "webrtc:http://maker:Pa55word@10.0.0.5/webcam/webrtc#format=camera-streamer", fallback: "stream")
        for secrets in [nil, MemorySecretStore()] as [MemorySecretStore?] {
            try ConfigStore(directory: directory, secrets: secrets).save(AppConfig(printers: [printer]))
            let data = try Data(contentsOf: directory.appendingPathComponent("printers.json"))
            let file = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let camera = ((file["printers"] as? [[String: Any]])?.first?["cameras"] as? [[String: Any]])?.first
            XCTAssertEqual(camera?["mjpegFallback"] as? String, "stream")
            if secrets != nil { XCTAssertFalse(String(decoding: data, as: UTF8.self).contains("Pa55word")) }
            let loaded = ConfigStore(directory: directory, secrets: secrets).load().config.printers
            XCTAssertEqual(loaded, [printer])
        }
        let source = try printer.source(of: printer.cameras[0])
        XCTAssertEqual(source, .webrtc(URL(string: "http://maker:Pa55word@10.0.0.5/webcam/webrtc#format=camera-streamer")!,
                                       fallback: URL(string: "http://maker:Pa55word@10.0.0.5/webcam/stream")!))
        XCTAssertFalse(printer.description.contains("Pa55word"), printer.description)
        XCTAssertTrue(printer.cameras[0].hasMJPEGFallback)
    }

    func testAFileWithoutTheFieldReadsAsBefore() throws {
        let directory = try makeTemporaryDirectory()
        let json = """
        {"formatVersion": 3, "printers": [{"id": "\(voronID)", "name": "Voron", "kind": "klipper", "host": "10.0.0.5",
          "cameras": [{"id": "\(cameraID)", "name": "Nozzle", "url": "webrtc:http://10.0.0.5/webcam/webrtc#format=camera-streamer",
                       "rotation": 90}]}]}
        """
        try Data(json.utf8).write(to: directory.appendingPathComponent("printers.json"))
        let loaded = ConfigStore(directory: directory, secrets: nil).load()
        XCTAssertNil(loaded.problem)
        XCTAssertFalse(loaded.needsSave)
        let printer = try XCTUnwrap(loaded.config.printers.first)
        XCTAssertEqual(printer, voron(url: "webrtc:http://10.0.0.5/webcam/webrtc#format=camera-streamer", fallback: nil))
        XCTAssertEqual(try printer.source(of: printer.cameras[0]),
                       .webrtc(URL(string: "http://10.0.0.5/webcam/webrtc#format=camera-streamer")!, fallback: nil))
        XCTAssertFalse(printer.cameras[0].hasMJPEGFallback)
    }

    func testAFallbackOfTheWrongTypeOrOnAnotherHostIsNotPlayed() throws {
        let directory = try makeTemporaryDirectory()
        let json = """
        {"formatVersion": 3, "printers": [{"id": "\(voronID)", "name": "Voron", "kind": "klipper", "host": "10.0.0.5",
          "cameras": [{"id": "\(cameraID)", "url": "webrtc:http://10.0.0.5/webcam/webrtc#format=camera-streamer", "mjpegFallback": 7},
                      {"id": "\(UUID())", "url": "webrtc:http://10.0.0.5/webcam/webrtc#format=camera-streamer",
                       "mjpegFallback": "http://10.9.9.9/stream"}]}]}
        """
        try Data(json.utf8).write(to: directory.appendingPathComponent("printers.json"))
        let printer = try XCTUnwrap(ConfigStore(directory: directory, secrets: nil).load().config.printers.first)
        XCTAssertEqual(printer.cameras.map(\.mjpegFallback), [nil, "http://10.9.9.9/stream"])
        for camera in printer.cameras {
            XCTAssertEqual(try printer.source(of: camera), .webrtc(URL(string: "http://10.0.0.5/webcam/webrtc#format=camera-streamer")!))
            XCTAssertFalse(camera.hasMJPEGFallback)
        }
    }

    func testAnImportedCameraKeepsItsFallback() {
        let found = ImportedCamera(name: "Nozzle", service: "webrtc-camerastreamer",
                                   url: "webrtc:http://10.0.0.5/webcam/webrtc#format=camera-streamer", mjpegFallback: "stream")
        XCTAssertEqual(PrinterCamera(found).mjpegFallback, "stream")
    }
}
