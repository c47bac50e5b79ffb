import CGtk
@testable import CameraKit
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// Adding a Creality printer as a user would, against a fake K1C on a loopback address of its own
/// with the printer's own ports — its status websocket on 9999 (Tests/Servers/creality_ws_server.py)
/// and its MJPEG camera on 8080 (mjpeg_server.py): Test Connection asks the websocket what it is,
/// sets the Model row from the answer and says so, then plays the camera; Add saves a Creality
/// printer whose tab plays that camera and whose status strip shows the fake printer's print.
/// When the status port or the camera does not answer, Test Connection says so in Creality's terms
/// under the field to fix.
final class CrealityDialogTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    /// The fake printer's websocket on `host`:9999, and its camera on `host`:8080 when `camera`.
    private func fakeK1C(on host: String, camera: Bool = true) throws -> (status: TestServer, camera: TestServer?) {
        let status = try TestServer(script: "creality_ws_server.py", arguments: ["--bind", host, "--port", "\(StatusEndpoint.crealityPort)"])
        addTeardownBlock { status.stop() }
        guard camera else { return (status, nil) }
        let mjpeg = try TestServer(script: "mjpeg_server.py", arguments: ["--bind", host, "--port", "\(CrealityFamily.k1.cameraPort)"])
        addTeardownBlock { mjpeg.stop() }
        return (status, mjpeg)
    }

    func testAddingAK1CFindsItsModelPlaysItsCameraAndShowsItsPrint() throws {
        let host = randomLoopbackAddress()
        let (printer, camera) = try fakeK1C(on: host)
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            dialog.select(.creality)
            XCTAssertEqual(dialog.kind.selected, PrinterChoice.all.firstIndex(of: .creality))
            XCTAssertEqual([dialog.name, dialog.host, dialog.variantRow, dialog.timelapse.field, dialog.cameraRows.field].map(\.isShown),
                           [true, true, true, true, true])
            XCTAssertEqual([dialog.accessCode, dialog.serial, dialog.apiPort, dialog.url, dialog.cameras].map(\.isShown),
                           [false, false, false, false, false], "no code, no port, no URL for its own camera")
            dialog.fill(name: "K1C workshop", host: host)
            dialog.crealityFamily = .k2  // the wrong family, which the printer's answer puts right
            XCTAssertEqual(dialog.variantRow.hintText, "K2, K2 Plus, K2 Pro and Hi: its camera is WebRTC on port 8000. Test Connection asks the printer which it is.")
            XCTAssertEqual(dialog.cameraRows.rowTexts, ["Camera 1 — Its own camera, WebRTC on port 8000"])

            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 20) { dialog.connectionTest.isDone }, dialog.testResultText)
            XCTAssertEqual(dialog.connectionTest.outcomes, [.passed, .passed], dialog.testResultText)
            let lines = dialog.testResultText.components(separatedBy: "\n")
            XCTAssertEqual(lines.first, "Status connected: the printer says it is a Creality K1C. "
                           + "Model set to “K1 or Ender-3 V3”: its camera is MJPEG on port 8080.")
            XCTAssertEqual(lines.count, 2, dialog.testResultText)
            XCTAssertTrue(lines.last?.hasPrefix("Connected: MJPEG 640×480. First picture after ") ?? false, dialog.testResultText)
            XCTAssertEqual(dialog.crealityFamily, .k1)
            XCTAssertEqual(dialog.variantRow.hintText, "K1, K1 Max, K1C, K1 SE and Ender-3 V3: its camera is MJPEG on port 8080. Test Connection asks the printer which it is.")
            XCTAssertEqual(dialog.cameraRows.rowTexts, ["Camera 1 — Its own camera, MJPEG on port 8080"])
            XCTAssertEqual(dialog.fieldsByProblem.compactMap { $0.1.errorText }, [], "nothing marked")
            let asked = printer.events(named: "request").first
            XCTAssertEqual(asked?.string("method"), "get", "the websocket was asked what it is")
            XCTAssertEqual((asked?.fields["params"] as? [String: Any])?["ReqPrinterPara"] as? Int, 1)
            XCTAssertNotNil(camera?.waitFor("request") { $0.string("path") == "/?action=stream" }, "the camera on the K1's own port")

            dialog.save()
            XCTAssertEqual(window.tabs.all.map(\.name), ["K1C workshop"])
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 15) { page.state == .live && page.status.strip.stateText == "Idle" },
                          "camera \(page.state), status \(String(describing: page.status.strip.stateText))")
            printer.send(["cmd": "set", "fields": ["state": 1, "printFileName": "/usr/data/printer_data/gcodes/Benchy.gcode",
                                                   "printProgress": 42, "layer": 57, "TotalLayer": 180, "printLeftTime": 4320]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { page.status.strip.stateText == "Printing" && page.status.strip.percentText == "42 %" },
                          "\(String(describing: page.status.strip.stateText)) \(String(describing: page.status.strip.percentText))")
            XCTAssertEqual(page.status.strip.jobText, "Benchy.gcode")

            app.flushSaves()
            let saved = try XCTUnwrap(ConfigStore(directory: directory, secrets: nil).load().config.printers.first)
            XCTAssertEqual(saved.kind, .creality(.k1))
            XCTAssertEqual(saved.host, host)
            XCTAssertNil(saved.apiPort)
            XCTAssertEqual(saved.accessCode, "")
            XCTAssertEqual(saved.cameras.map(\.url), [nil], "its own camera, which follows host and family")
            let file = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("printers.json"))) as? [String: Any])
            let entry = try XCTUnwrap((file["printers"] as? [[String: Any]])?.first)
            XCTAssertEqual(entry["kind"] as? String, "creality")
            XCTAssertEqual(entry["family"] as? String, "k1")
        }
    }

    /// A K2 Plus — its board code and WebRTC firmware on the websocket, its WebRTC camera on port
    /// 8000 of its own address (webrtc_camera.py in Creality's signalling) — is found to be of the
    /// K2 family by Test Connection, and its tab plays the camera's picture.
    func testAddingAK2PlaysItsWebRTCCamera() throws {
        let host = randomLoopbackAddress()
        let (printer, _) = try fakeK1C(on: host, camera: false)
        printer.send(["cmd": "set", "fields": ["model": "F008", "modelVersion": "Printer HW Ver: F008; Printer SW Ver: 1.1.3.3",
                                               "webrtcSupport": 1]])
        XCTAssertNotNil(printer.waitFor("done"))
        let camera = try TestServer(script: "webrtc_camera.py", arguments: ["--style", "creality", "--bind", host,
                                                                            "--port", "\(CrealityFamily.k2.cameraPort)"])
        addTeardownBlock { camera.stop() }
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            dialog.select(.creality)
            dialog.fill(name: "K2 Plus", host: host)
            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 30) { dialog.connectionTest.isDone }, dialog.testResultText)
            XCTAssertEqual(dialog.crealityFamily, .k2)
            XCTAssertTrue(dialog.testResultText.components(separatedBy: "\n").last?.hasPrefix("Connected: H264 320×240.") ?? false,
                          dialog.testResultText)

            dialog.save()
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 30) { page.state == .live }, "camera \(page.state)")
            XCTAssertTrue(iterateMainContext(timeout: 10) { WebRTCWindowTests.quadrants(in: page.surface!.picture) == WebRTCWindowTests.quadrants },
                          "the tab: \(String(describing: WebRTCWindowTests.quadrants(in: page.surface!.picture)))")
            let offers = camera.events(named: "offer")
            XCTAssertFalse(offers.isEmpty)
            let addresses = offers.flatMap { ($0.fields["candidates"] as? [String]) ?? [] }
            XCTAssertFalse(addresses.isEmpty)
            XCTAssertEqual(addresses.filter { !$0.hasPrefix("127.") }, [], "the app's candidates only on loopback")
            app.flushSaves()
            let saved = try XCTUnwrap(ConfigStore(directory: directory, secrets: nil).load().config.printers.first)
            XCTAssertEqual(saved.kind, .creality(.k2))
            XCTAssertEqual(saved.cameras.map(\.url), [nil], "its own camera, which follows host and family")
        }
    }

    /// A status port nobody answers on marks the address; a printer that answers but names no
    /// model keeps the Model chosen, and its camera not answering there marks the Model row; a K2
    /// Plus's board code and WebRTC firmware set the Model row to the K2 family.
    func testWhatDoesNotAnswerIsSaidUnderTheFieldToFix() throws {
        let host = randomLoopbackAddress()
        let (printer, _) = try fakeK1C(on: host, camera: false)
        printer.send(["cmd": "set", "fields": ["model": NSNull(), "webrtcSupport": NSNull()]])
        XCTAssertNotNil(printer.waitFor("done"))
        let locked = randomLoopbackAddress()
        let refusing = try TestServer(script: "creality_ws_server.py", arguments: ["--bind", locked, "--port", "\(StatusEndpoint.crealityPort)", "--refuse", "401"])
        addTeardownBlock { refusing.stop() }
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            defer { gtk_window_destroy(gcast(dialog.window)) }
            dialog.select(.creality)
            dialog.fill(name: "K2", host: randomLoopbackAddress())
            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 15) { dialog.host.errorText != nil }, dialog.testResultText)
            XCTAssertEqual(dialog.host.errorText, "Nothing answers on port 9999, where a Creality printer reports its status — check the address and that the printer is on.")
            XCTAssertEqual(dialog.testResultText, "Status: the printer refused the connection — check the address and port.\n"
                           + "Not tried until the printer's status answers: it says where the camera is.")
            XCTAssertEqual(dialog.connectionTest.outcomes, [.failed, .failed])
            XCTAssertNil(dialog.variantRow.errorText, "the model is not blamed for an address nothing answers at")
            XCTAssertTrue(PrinterDialogFormTests.holdsFocus(dialog.host, in: dialog), "the keyboard on the address")

            // A websocket asking for a login (a Creality printer's has none): said in its terms, no
            // access code asked for.
            dialog.host.text = locked
            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 15) { dialog.host.errorText != nil }, dialog.testResultText)
            XCTAssertEqual(dialog.host.errorText, "Something answers here and asks for a login, which a Creality printer's status connection does not have — check the address.")

            dialog.host.text = host
            XCTAssertNil(dialog.host.errorText, "an edit of the address clears it")
            dialog.crealityFamily = .k2
            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 30) { dialog.variantRow.errorText != nil }, dialog.testResultText)
            XCTAssertEqual(dialog.variantRow.errorText, "Nothing answers on port 8000, where this model's WebRTC camera streams — check the model.")
            XCTAssertEqual(dialog.crealityFamily, .k2, "no model named: the one chosen is kept")
            XCTAssertEqual(dialog.testResultText.components(separatedBy: "\n").first,
                           "Status connected, but the printer did not say which model it is: the Model chosen is kept.")
            XCTAssertEqual(dialog.connectionTest.outcomes, [.passed, .failed])
            XCTAssertTrue(PrinterDialogFormTests.holdsFocus(dialog.variantRow, in: dialog), "the keyboard on the Model")
            XCTAssertNil(dialog.host.errorText)
            dialog.crealityFamily = .k1
            XCTAssertNil(dialog.variantRow.errorText, "another model clears it")

            // A K2 Plus names its board, and its firmware WebRTC: the Model row follows.
            printer.send(["cmd": "set", "fields": ["model": "F008", "modelVersion": "Printer HW Ver: F008; Printer SW Ver: 1.1.3.3",
                                                   "webrtcSupport": 1]])
            XCTAssertTrue(iterateMainContext(timeout: 10) { printer.events(named: "done").count == 2 })
            dialog.testConnection()
            XCTAssertTrue(iterateMainContext(timeout: 30) { dialog.variantRow.errorText != nil }, dialog.testResultText)
            XCTAssertEqual(dialog.crealityFamily, .k2)
            XCTAssertEqual(dialog.testResultText.components(separatedBy: "\n").first,
                           "Status connected: the printer says it is a Creality K2 Plus whose camera streams over WebRTC. "
                           + "Model set to “K2 or Hi”: its camera is WebRTC on port 8000.")
            XCTAssertEqual(dialog.variantRow.errorText, "Nothing answers on port 8000, where this model's WebRTC camera streams — check the model.")
        }
    }

    /// Editing a saved K2 shows its Model and keeps what no field shows (its websocket's port); its
    /// own camera goes with another Type and comes back, first, with Creality's.
    func testEditingAK2KeepsItsFamilyAndPort() throws {
        let door = PrinterCamera(name: "Door", url: "http://127.0.0.1:\(closedLoopbackPort())/?action=stream")
        let printer = Printer(name: "K2 Plus", kind: .creality(.k2), host: "192.0.2.7", apiPort: 19999,
                              cameras: [.own(), door], timelapse: .perLayer)
        try MainActor.assumeIsolated {
            let dialog = PrinterDialog(parent: nil, editing: printer)
            defer { gtk_window_destroy(gcast(dialog.window)) }
            XCTAssertEqual(dialog.choice, .creality)
            XCTAssertEqual(dialog.crealityFamily, .k2)
            XCTAssertEqual(dialog.variantRow.hintText, "K2, K2 Plus, K2 Pro and Hi: its camera is WebRTC on port 8000. Test Connection asks the printer which it is.")
            XCTAssertEqual(dialog.cameraRows.rowTexts, ["Camera 1 — Its own camera, WebRTC on port 8000", "Door — \(door.url!)"])
            XCTAssertEqual(try dialog.draft.validate().get(), printer, "saved as it was")

            dialog.selectKind(.klipper)
            XCTAssertEqual(dialog.draft.cameras.map(\.id), [door.id], "a Klipper printer has no own camera")
            dialog.selectKind(.creality(.k1))
            XCTAssertEqual(dialog.draft.cameras.map(\.url), [nil, door.url], "back as a Creality printer, first")
            XCTAssertEqual(dialog.crealityFamily, .k2, "the Model row kept its family")
            XCTAssertEqual(dialog.draft.apiPort, "19999")
        }
    }
}
