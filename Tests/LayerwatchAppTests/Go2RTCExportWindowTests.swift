import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import TestSupport
import XCTest

/// "Export for go2rtc…" in the main menu: there only while printers are saved, and what its save
/// dialog's answer leads to (the native chooser itself is not driven) — the saved printers' YAML,
/// owner-only.
final class Go2RTCExportWindowTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testTheExportWritesTheSavedPrintersOwnerOnly() throws {
        let directory = try makeTemporaryDirectory()
        let output = try makeTemporaryDirectory()
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertFalse(window.isEnabled("export-go2rtc"), "nothing to export without saved printers")
            XCTAssertTrue(AppMenuItems.titles().contains("Export for go2rtc…"), "\(AppMenuItems.titles())")

            // Cameras refused at once: no TLS client (status or camera) is left running when the test ends.
            let port = closedLoopbackPort()
            let door = Printer(name: "Door \"cam\"", kind: .generic, cameras: [PrinterCamera(url: "rtsp://admin:se$cret${HOME}@127.0.0.1:\(port)/live")])
            let voron = Printer(name: "Voron", kind: .generic, cameras: [PrinterCamera(url: "http://127.0.0.1:\(port)/webcam/?action=stream")])
            app.editor.save(door)
            app.editor.save(voron)
            XCTAssertTrue(window.isEnabled("export-go2rtc"))

            let url = output.appendingPathComponent("go2rtc.yaml")
            Go2RTCExportDialog.export(app.library, to: url, toastIn: window)
            let yaml = try String(contentsOf: url, encoding: .utf8)
            XCTAssertEqual(yaml, Go2RTCExport.yaml(for: app.library.config.printers))
            // `$` as YAML's escape: go2rtc's `${…}` substitution finds nothing, its YAML parser gives `$` back.
            XCTAssertTrue(yaml.contains(#"  "door_cam": "rtsp://admin:se\u0024cret\u0024{HOME}@127.0.0.1:\#(port)/live""# + "\n"), yaml)
            XCTAssertTrue(yaml.contains("  \"voron\": \"http://127.0.0.1:\(port)/webcam/?action=stream\"\n"), yaml)
            let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
            XCTAssertEqual(mode, 0o600)

            Go2RTCExportDialog.export(app.library, to: output.appendingPathComponent("missing/go2rtc.yaml"), toastIn: window) // a toast, nothing written
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: output.path), ["go2rtc.yaml"])

            for page in window.tabs.all {
                app.library.remove(id: page.printerID)
                app.editor.close(page)
            }
            XCTAssertFalse(window.isEnabled("export-go2rtc"), "the last printer removed, nothing to export")
        }
    }
}

/// The titles in the primary menu, as `AppMenu` builds it from the feature table.
@MainActor
private enum AppMenuItems {
    static func titles() -> [String] {
        let button = AppMenu.button()
        g_object_ref_sink(button)
        defer { g_object_unref(button) }
        let menu = gtk_menu_button_get_menu_model(gcast(button))!
        var titles: [String] = []
        for section in 0..<g_menu_model_get_n_items(menu) {
            guard let part = g_menu_model_get_item_link(menu, section, G_MENU_LINK_SECTION) else { continue }
            defer { g_object_unref(part) }
            for index in 0..<g_menu_model_get_n_items(part) {
                let value = g_menu_model_get_item_attribute_value(part, index, G_MENU_ATTRIBUTE_LABEL, nil)
                if let value {
                    titles.append(String(cString: g_variant_get_string(value, nil)))
                    g_variant_unref(value)
                }
            }
        }
        return titles
    }
}
