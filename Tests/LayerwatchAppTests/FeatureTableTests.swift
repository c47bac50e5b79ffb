import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// The feature table is the only declaration of a feature: every entry is an action of the window
/// or the application, its shortcut (pressed for real, through XTEST) activates that action, and the
/// shortcuts window lists it in its group.
final class FeatureTableTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testEveryFeatureIsAnActionItsShortcutActivatesAndTheShortcutsWindowLists() throws {
        let windowManager = try WindowManager()
        let clip = try TestClips.smpteBars(width: 320, height: 240, fps: 10, seconds: 2)
        let directory = try makeTemporaryDirectory()
        let snapshots = try makeTemporaryDirectory(), recordings = try makeTemporaryDirectory()
        let printers = ["One", "Two"].map { Printer(name: $0, kind: .generic, cameras: [PrinterCamera(url: clip.path)]) }
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: printers, selectedPrinterID: printers[0].id))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            window.snapshotFolder = snapshots
            window.recordingFolder = recordings  // Record runs too: never into the real Videos folder
            XCTAssertTrue(iterateMainContext(timeout: 10) { window.tabs.selected?.state == .live })
            let xid = UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window.window))))

            var activations: [String: Int] = [:]
            for feature in Feature.all {
                let map: OpaquePointer = switch feature.scope {
                case .window: gcast(window.window)
                case .application: gcast(app.application)
                case .camera: gcast(try XCTUnwrap(window.tabs.selected?.cameraActions, "the tab's picture has its actions").pointer)
                case .printer: gcast(try XCTUnwrap(window.tabs.selected?.printerActions, "the tab's printer has its actions").group.pointer)
                }
                // A print control is an action only while it shows: these printers have no status
                // (PrintControlTests presses their shortcuts on a printer's print).
                if feature.lockedReason != nil {
                    XCTAssertNil(g_action_map_lookup_action(map, feature.name), "\(feature.name) without a print")
                    XCTAssertEqual(Self.accelerators(of: feature.actionName, in: app), feature.accelerators.map(Self.canonical))
                    continue
                }
                let action = try XCTUnwrap(g_action_map_lookup_action(map, feature.name), "\(feature.actionName) is an action")
                connectSignal(action, "activate") { (_: UnsafeMutableRawPointer?) in activations[feature.name, default: 0] += 1 }
                XCTAssertEqual(Self.accelerators(of: feature.actionName, in: app), feature.accelerators.map(Self.canonical),
                               "the application binds \(feature.actionName) to the table's shortcuts")
            }

            // Ctrl+Q ends the app: QuitTests presses it.
            for feature in Feature.all where feature.lockedReason == nil && feature.name != "quit" {
                guard let accelerator = feature.accelerators.first else { continue }
                XCTAssertEqual(Keyboard.press(Self.xdotoolKeys(accelerator), window: xid), 0, accelerator)
                XCTAssertTrue(iterateMainContext(timeout: 5) { activations[feature.name] == 1 },
                              "\(accelerator) activated \(feature.actionName): \(activations)")
                Self.closeOtherWindows(than: window.window)
                XCTAssertTrue(iterateMainContext(timeout: 5) { Self.visibleToplevels().count == 1 }, "after \(feature.name)")
            }
            XCTAssertTrue(iterateMainContext(timeout: 10) {
                (try? FileManager.default.contentsOfDirectory(atPath: snapshots.path).count) == 1
            }, "Ctrl+S saved a snapshot")

            let overlay = try XCTUnwrap(gtk_application_window_get_help_overlay(gcast(window.window)))
            let rows = Self.shortcutRows(in: gcast(overlay))
            for feature in Feature.all {
                guard let group = feature.shortcutGroup, let accelerator = feature.accelerators.first else { continue }
                let title = ["printers": "Printers", "print": "Print", "camera": "Camera", "general": "General"][group.rawValue]
                XCTAssertTrue(rows.contains { $0 == (title ?? "", feature.title, accelerator) },
                              "\(feature.name) is listed under \(group): \(rows)")
            }
            XCTAssertTrue(rows.contains { $0 == ("Printers", "Next Tab", "<Control>Page_Down") }, "libadwaita's own shortcuts stay listed")
        }
        withExtendedLifetime(windowManager) {}
    }

    func testFeaturesAreEnabledOnlyWhereTheyApply() throws {
        let windowManager = try WindowManager() // Fullscreen is the window manager's to grant.
        let clip = try TestClips.smpteBars(width: 320, height: 240, fps: 10, seconds: 2)
        let directory = try makeTemporaryDirectory()
        let saved = Printer(name: "Saved", kind: .generic, cameras: [PrinterCamera(url: "rtsp://127.0.0.1:\(closedLoopbackPort())/live")])
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [saved], selectedPrinterID: saved.id))
        try MainActor.assumeIsolated {
            let (app, window) = try startApp(in: directory)
            defer { gtk_window_destroy(gcast(window.window)) }
            XCTAssertTrue(window.isEnabled("edit-printer"), "a saved printer can be edited")
            XCTAssertFalse(try XCTUnwrap(window.tabs.selected).isPictureActionEnabled("snapshot"), "no picture from a refused camera, no snapshot")
            XCTAssertFalse(window.isEnabled("leave-fullscreen"), "Escape is free outside fullscreen")
            XCTAssertTrue(try XCTUnwrap(window.tabs.selected).isPictureActionEnabled("reconnect"), "a refused camera can be tried again")

            app.open(urls: [clip.path])
            XCTAssertTrue(iterateMainContext(timeout: 10) { window.tabs.selected?.name != "Saved" && window.tabs.selected?.state == .live },
                          "\(String(describing: window.tabs.selected?.name)) \(String(describing: window.tabs.selected?.state))")
            XCTAssertFalse(window.isEnabled("edit-printer"), "a camera opened by URL is not a saved printer")
            XCTAssertTrue(try XCTUnwrap(window.tabs.selected).isPictureActionEnabled("snapshot"), "a live picture can be saved")

            window.setFullscreen(true)
            XCTAssertTrue(iterateMainContext(timeout: 5) { window.isEnabled("leave-fullscreen") })
            window.setFullscreen(false)
            XCTAssertTrue(iterateMainContext(timeout: 5) { !window.isEnabled("leave-fullscreen") })
        }
        withExtendedLifetime(windowManager) {}
    }

    // MARK: Helpers

    @MainActor
    private static func accelerators(of action: String, in app: LayerwatchApplication) -> [String] {
        guard let list = gtk_application_get_accels_for_action(gcast(app.application), action) else { return [] }
        defer { g_strfreev(list) }
        var result: [String] = []
        var index = 0
        while let item = list[index] {
            result.append(String(cString: item))
            index += 1
        }
        return result
    }

    /// GTK's own spelling of an accelerator ("<Control><Shift>p" → "<Shift><Control>p").
    @MainActor
    private static func canonical(_ accelerator: String) -> String {
        var key: guint = 0
        var modifiers = GdkModifierType(rawValue: 0)
        gtk_accelerator_parse(accelerator, &key, &modifiers)
        let name = gtk_accelerator_name(key, modifiers)!
        defer { g_free(name) }
        return String(cString: name)
    }

    /// "<Control><Shift>p" as xdotool spells it: "ctrl+shift+p".
    private static func xdotoolKeys(_ accelerator: String) -> String {
        var keys = accelerator
        for (gtk, xdotool) in [("<Control>", "ctrl+"), ("<Shift>", "shift+"), ("<Alt>", "alt+")] {
            keys = keys.replacingOccurrences(of: gtk, with: xdotool)
        }
        return keys
    }

    @MainActor
    private static func visibleToplevels() -> [UnsafeMutablePointer<GtkWidget>] {
        let list = gtk_window_get_toplevels()!
        return (0..<g_list_model_get_n_items(list)).compactMap { index in
            let window: UnsafeMutablePointer<GtkWidget> = gcast(g_list_model_get_item(list, index)!)
            g_object_unref(window.rawGObject)
            return Bool(gboolean: gtk_widget_get_visible(window)) ? window : nil
        }
    }

    /// Closes what a feature opened (a dialog, the mini window, the shortcuts window) as the user would.
    @MainActor
    private static func closeOtherWindows(than main: UnsafeMutablePointer<GtkWidget>) {
        for window in visibleToplevels() where window != main {
            gtk_window_close(gcast(window))
        }
        _ = iterateMainContext(timeout: 1) { false }
    }

    /// (group title, shortcut title, accelerator) for every row of a shortcuts window.
    @MainActor
    private static func shortcutRows(in widget: UnsafeMutablePointer<GtkWidget>, group: String = "") -> [(String, String, String)] {
        var rows: [(String, String, String)] = []
        var group = group
        switch typeName(widget) {
        case "GtkShortcutsGroup":
            group = firstLabel(in: widget) ?? ""
        case "GtkShortcutsShortcut":
            let accelerator = descendant(of: widget, named: "GtkShortcutLabel")
                .flatMap { gtk_shortcut_label_get_accelerator(gcast($0)) }.map { String(cString: $0) }
            return [(group, firstLabel(in: widget) ?? "", accelerator ?? "")]
        default:
            break
        }
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            rows += shortcutRows(in: current, group: group)
            child = gtk_widget_get_next_sibling(current)
        }
        return rows
    }

    @MainActor
    private static func typeName(_ widget: UnsafeMutablePointer<GtkWidget>) -> String {
        String(cString: g_type_name_from_instance(gcast(widget)))
    }

    /// The text of the first GtkLabel under `widget`, not counting the key caps of a shortcut label.
    @MainActor
    private static func firstLabel(in widget: UnsafeMutablePointer<GtkWidget>) -> String? {
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            switch typeName(current) {
            case "GtkLabel": return String(cString: gtk_label_get_text(gcast(current)))
            case "GtkShortcutLabel", "GtkShortcutsShortcut": break
            default: if let text = firstLabel(in: current) { return text }
            }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }

    @MainActor
    private static func descendant(of widget: UnsafeMutablePointer<GtkWidget>, named name: String) -> UnsafeMutablePointer<GtkWidget>? {
        var child = gtk_widget_get_first_child(widget)
        while let current = child {
            if typeName(current) == name { return current }
            if let found = descendant(of: current, named: name) { return found }
            child = gtk_widget_get_next_sibling(current)
        }
        return nil
    }
}
