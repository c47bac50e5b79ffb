import CGtk
@testable import CameraKit
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// The Add Printer dialog's "go2rtc restreamer" against the go2rtc API fake with Basic auth: its
/// streams are listed (their sources never shown), a wrong password is said under the address,
/// and Save adds one generic RTSP camera per checked stream, the API password kept nowhere.
final class GoRTCImportDialogTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testStreamsAreListedAndEachCheckedOneBecomesAnRTSPCameraTab() throws {
        let go2rtc = try TestServer(script: "go2rtc_server.py", arguments: ["--basic-auth", "farm:Gr33nH0use"])
        go2rtc.send(["cmd": "streams", "streams": ["x1c": ["rtspx://bblp:Qz81Ww07@192.0.2.10:322/streaming/live/1"],
                                                   "door cam": ["rtsp://192.0.2.12/live"],
                                                   "p1s": ["exec:layerwatch relay bambu-jpeg://192.0.2.11?code=Qz81Ww07"]]])
        XCTAssertNotNil(go2rtc.waitFor("done"))
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            dialog.select(.go2rtc)
            XCTAssertEqual(shown(dialog), ["name", "host", "port", "username", "API password", "cameras"])
            XCTAssertEqual(dialog.apiPort.placeholderText, "1984")
            XCTAssertTrue(dialog.accessCode.hintText?.contains("not saved") == true, dialog.accessCode.hintText ?? "")
            dialog.host.text = "127.0.0.1"
            dialog.apiPort.text = "\(go2rtc.port)"
            dialog.apiUser.text = "farm"
            dialog.accessCode.text = "Wr0ngPass"

            dialog.findCameras()
            XCTAssertTrue(iterateMainContext(timeout: 10) { !dialog.cameraList.isSearching })
            XCTAssertEqual(dialog.accessCode.errorText, "Rejected — check it and try again.", "on the key's own field")
            XCTAssertNil(dialog.host.errorText, "not on the address")
            XCTAssertFalse(gtk_widget_get_visible(dialog.cameraList.listBox) != 0, "nothing listed")

            dialog.accessCode.text = "Gr33nH0use"
            XCTAssertNil(dialog.accessCode.errorText, "an edit of the password clears the old answer")
            dialog.findCameras()
            XCTAssertTrue(iterateMainContext(timeout: 10) { !dialog.cameraList.isSearching })
            XCTAssertNil(dialog.host.errorText)
            XCTAssertNotNil(go2rtc.waitFor("request") { $0.string("path") == "/api/streams" && $0.fields["authorized"] as? Bool == true })
            let list = dialog.cameraList
            XCTAssertEqual(list.cameras.map(\.name), ["door cam", "p1s", "x1c"])
            XCTAssertEqual((0..<3).map { checked(list, $0) }, [true, true, true])
            XCTAssertEqual((0..<3).map { subtitle(list, $0) }, ["rtsp://127.0.0.1:8554/door%20cam\ngo2rtc",
                                                               "rtsp://127.0.0.1:8554/p1s\ngo2rtc", "rtsp://127.0.0.1:8554/x1c\ngo2rtc"])
            gtk_check_button_set_active(gcast(list.row(at: 1).check), false.gboolean)

            dialog.save()
            XCTAssertEqual(window.tabs.all.map(\.name), ["door cam", "x1c"], "one tab per checked stream, named after it")
            app.flushSaves()
            let text = String(decoding: try Data(contentsOf: ConfigStore(directory: directory, secrets: nil).fileURL), as: UTF8.self)
            XCTAssertFalse(text.contains("Gr33nH0use") || text.contains("Qz81Ww07"), text)
            let saved = ConfigStore(directory: directory, secrets: nil).load().config.printers
            XCTAssertEqual(saved, [Printer(id: saved[0].id, name: "door cam", kind: .generic,
                                           cameras: [PrinterCamera(id: saved[0].cameras[0].id, url: "rtsp://127.0.0.1:8554/door%20cam")]),
                                   Printer(id: saved[1].id, name: "x1c", kind: .generic,
                                           cameras: [PrinterCamera(id: saved[1].cameras[0].id, url: "rtsp://127.0.0.1:8554/x1c")])],
                           "a plain camera per stream: a restreamer's streams are usually different printers'")

            // Nothing serves RTSP on 8554 here: each tab's card says it failed and will retry.
            for page in window.tabs.all {
                let status = page.surface!.status
                XCTAssertTrue(iterateMainContext(timeout: 10) { status.titleText.hasPrefix("Reconnecting") }, status.titleText)
                XCTAssertTrue(status.isShown)
                XCTAssertEqual(status.buttonText, "Retry Now")
            }
        }
    }

    func testAPasswordWithoutAUsernameIsSaidUnderItAndNothingIsAsked() throws {
        let go2rtc = try TestServer(script: "go2rtc_server.py")
        try MainActor.assumeIsolated {
            let dialog = PrinterDialog(parent: nil, editing: nil)
            defer { gtk_window_destroy(gcast(dialog.window)) }
            dialog.select(.go2rtc)
            dialog.host.text = "127.0.0.1"
            dialog.apiPort.text = "\(go2rtc.port)"
            dialog.accessCode.text = "Gr33nH0use"
            dialog.findCameras()
            XCTAssertFalse(dialog.cameraList.isSearching, "no request")
            XCTAssertEqual(dialog.apiUser.errorText, "Enter the username too (under api: in go2rtc.yaml), or leave both empty.")

            dialog.accessCode.text = ""
            dialog.save()
            XCTAssertEqual(dialog.cameras.errorText, "Check at least one stream: “Find Cameras” lists the ones go2rtc has.")
            XCTAssertNil(dialog.name.errorText, "the name is optional: tabs are named after the streams")
            XCTAssertEqual(try XCTUnwrap(go2rtc.events(named: "request")).count, 0)
        }
    }

    // MARK: Helpers

    /// The dialog's fields shown now, below the kind.
    @MainActor
    private func shown(_ dialog: PrinterDialog) -> [String] {
        let fields = [("name", dialog.name), ("host", dialog.host), ("port", dialog.apiPort), ("username", dialog.apiUser),
                      (dialog.accessCode.titleText, dialog.accessCode),
                      ("serial", dialog.serial), ("URL", dialog.url), ("cameras", dialog.cameras)]
        return fields.filter { gtk_widget_get_visible($0.1.widget) != 0 }.map(\.0)
    }

    @MainActor
    private func checked(_ list: ImportedCameraList, _ index: Int) -> Bool {
        gtk_check_button_get_active(gcast(list.row(at: index).check)) != 0
    }

    @MainActor
    private func subtitle(_ list: ImportedCameraList, _ index: Int) -> String {
        String(cString: adw_action_row_get_subtitle(gcast(list.row(at: index).row)))
    }
}
