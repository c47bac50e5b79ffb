import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// A saved snapshot's toast, as the user meets it: over the picture, never over the control bar;
/// its button, Show in Files, clicked for real, asks the desktop's file manager (a fake
/// org.freedesktop.FileManager1 on the test's session bus) to show the file; the file's name, a
/// link, opens it (Enter on the focused link).
final class SavedFileToastTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testASnapshotsToastShowsTheFileInFilesAndOpensItWithoutCoveringTheControls() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("needs a private session bus: run under dbus-run-session (make test)")
        }
        let windowManager = try WindowManager()
        let files = try TestServer(script: "file_manager_server.py")
        addTeardownBlock { files.stop() }
        let clip = try TestClips.smpteBars(width: 320, height: 240, fps: 10, seconds: 30)
        let directory = try makeTemporaryDirectory(), pictures = try makeTemporaryDirectory()
        let printer = Printer(name: "Bench", kind: .generic, cameras: [PrinterCamera(url: clip.path)])
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [printer]))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { window.close() }
            var opened: [URL] = []
            app.fileLauncher = { opened.append($0) }
            window.snapshotFolder = pictures
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 10) { page.state == .live })
            _ = iterateMainContext(timeout: 1) { false }
            window.activate("camera.snapshot")
            XCTAssertTrue(iterateMainContext(timeout: 10) { !toastTitles(in: window.window).isEmpty }, "a toast says where it went")
            let name = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: pictures.path).first)
            let file = pictures.appendingPathComponent(name)
            XCTAssertEqual(toastTitles(in: window.window), ["Saved “\(name)” in \(SavedFiles.shownName(of: pictures))"])
            let toast = try XCTUnwrap(descendants(of: window.window).first { String(cString: gtk_widget_get_css_name($0)) == "toast" })
            _ = iterateMainContext(timeout: 1) { false }  // its slide-in ends

            let toastBounds = try Self.bounds(of: toast, in: window.window)
            let barBounds = try Self.bounds(of: page.controls.widget, in: window.window)
            XCTAssertTrue(toastBounds.maxY <= barBounds.minY || toastBounds.minY >= barBounds.maxY
                          || toastBounds.maxX <= barBounds.minX || toastBounds.minX >= barBounds.maxX,
                          "the toast \(toastBounds) stays off the control bar \(barBounds)")

            let button = try XCTUnwrap(descendants(of: toast).first {
                typeName($0) == "GtkButton" && gtk_button_get_label(gcast($0)).map { String(cString: $0) } == "Show in Files"
            }, "the toast's button")
            let width = Double(gtk_widget_get_width(button)), height = Double(gtk_widget_get_height(button))
            XCTAssertEqual(Pointer(widget: button).at(width / 2, height / 2, then: ["click", "1"]), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { !files.events(named: "call").isEmpty }, "the file manager was asked")
            let call = try XCTUnwrap(files.events(named: "call").first)
            XCTAssertEqual(call.string("method"), "ShowItems")
            XCTAssertEqual(call.fields["uris"] as? [String], [file.absoluteString])
            XCTAssertEqual((call.fields["uris"] as? [String])?.first.flatMap { URL(string: $0)?.path }, file.path)
            XCTAssertEqual(call.string("startup_id"), "")

            window.activate("camera.snapshot")  // a toast to open from (the click dismissed the first)
            XCTAssertTrue(iterateMainContext(timeout: 10) {
                (try? FileManager.default.contentsOfDirectory(atPath: pictures.path).count) == 2 && !toastTitles(in: window.window).isEmpty
            }, "\((try? FileManager.default.contentsOfDirectory(atPath: pictures.path)) ?? []) \(toastTitles(in: window.window))")
            let second = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: pictures.path).first { $0 != name })
            XCTAssertTrue(iterateMainContext(timeout: 5) { toastTitles(in: window.window).contains { $0.contains(second) } },
                          "\(toastTitles(in: window.window))")
            let link = try XCTUnwrap(descendants(of: window.window).first {
                typeName($0) == "GtkLabel" && Bool(gboolean: gtk_widget_has_css_class($0, "heading"))
                    && String(cString: gtk_label_get_text(gcast($0))).contains(second)
            })
            XCTAssertTrue(String(cString: gtk_label_get_label(gcast(link))).contains("<a href="), "the name is a link")
            gtk_widget_grab_focus(link)
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window.window))))
            XCTAssertEqual(Keyboard.press("Return", window: xid), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { !opened.isEmpty }, "Enter on the name opens the file")
            XCTAssertEqual(opened.map(\.path), [pictures.appendingPathComponent(second).path])
        }
        withExtendedLifetime(windowManager) {}
    }

    @MainActor
    private static func bounds(of widget: UnsafeMutablePointer<GtkWidget>, in window: UnsafeMutablePointer<GtkWidget>) throws -> CGRect {
        var rect = graphene_rect_t()
        XCTAssertTrue(Bool(gboolean: gtk_widget_compute_bounds(widget, window, &rect)))
        return CGRect(x: Double(rect.origin.x), y: Double(rect.origin.y), width: Double(rect.size.width), height: Double(rect.size.height))
    }

    @MainActor
    private func typeName(_ widget: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: g_type_name_from_instance(gcast(widget)))
    }
}
