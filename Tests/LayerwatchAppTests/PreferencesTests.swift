import CGtk
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// The Preferences window against the whole app: Ctrl+, opens it and Escape closes it; what is set
/// there reaches printers.json and is obeyed (the appearance, start at login, the folders).
final class PreferencesTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    private func startApp(with printers: [Printer]) throws -> (LayerwatchApplication, MainWindow, URL) {
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: printers))
        let (app, window) = try MainActor.assumeIsolated { try LayerwatchAppTests.startApp(in: directory) }
        return (app, window, directory)
    }

    private func clipPrinter(_ name: String) throws -> Printer {
        Printer(name: name, kind: .generic, cameras: [PrinterCamera(url: try TestClips.smpteBars(width: 320, height: 240, seconds: 1).path)])
    }

    @MainActor
    private static func xid(of window: UnsafeMutablePointer<GtkWidget>) -> UInt {
        UInt(gdk_x11_surface_get_xid(gtk_native_get_surface(gcast(window))))
    }

    func testCtrlCommaOpensThePreferencesAndEscapeClosesThem() throws {
        let windowManager = try WindowManager()
        let (app, window, _) = try startApp(with: [try clipPrinter("Bench")])
        try MainActor.assumeIsolated {
            XCTAssertTrue(iterateMainContext(timeout: 5) { Bool(gboolean: gtk_widget_get_mapped(window.window)) })
            XCTAssertEqual(Keyboard.press("ctrl+comma", window: Self.xid(of: window.window)), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) {
                app.preferences.window.map { Bool(gboolean: gtk_widget_get_mapped($0.window)) } ?? false
            }, "Ctrl+, opens the Preferences")
            weak var preferences = app.preferences.window
            let shown = try XCTUnwrap(preferences).window
            XCTAssertEqual(gtk_window_get_transient_for(gcast(shown)), gcast(window.window))
            XCTAssertFalse(Bool(gboolean: gtk_window_get_modal(gcast(shown))))
            XCTAssertTrue(Bool(gboolean: gtk_window_get_destroy_with_parent(gcast(shown))))
            app.showPreferences()
            XCTAssertTrue(app.preferences.window === preferences, "one window, brought up again")
            XCTAssertNotNil(PreferencesWidgets.row(titled: "Run in Background", in: shown))

            XCTAssertEqual(Keyboard.press("Escape", window: Self.xid(of: shown)), 0)
            XCTAssertTrue(iterateMainContext(timeout: 5) { app.preferences.window == nil }, "Escape closes it")
            XCTAssertNotNil(app.window, "the main window stays")
            window.close()
        }
        withExtendedLifetime(windowManager) {}
    }

    func testTheShortcutIsListedInTheMenuAndTheShortcutsWindow() throws {
        MainActor.assumeIsolated {
            let feature = Feature.all.first { $0.name == "preferences" }
            XCTAssertEqual(feature?.accelerators, ["<Control>comma"])
            XCTAssertEqual(feature?.shortcutGroup, .general)
            XCTAssertEqual(feature?.placements, [.menu(section: 1)])
            XCTAssertNil(Feature.all.first { $0.name == "notify-prints" }, "the per-printer switch lives in Preferences now")
        }
    }

    func testSwitchesRoundTripToTheConfigAndAreObeyed() throws {
        let camera = try TestServer(script: "rtsp_server.py", arguments: ["--width", "320", "--height", "240"])
        addTeardownBlock { camera.stop() }
        let printer = Printer(name: "Bench", kind: .generic, cameras: [PrinterCamera(url: "rtsp://127.0.0.1:\(camera.port)/streaming/live/1")])
        let (app, window, directory) = try startApp(with: [printer])
        let autostartFolder = try makeTemporaryDirectory().appendingPathComponent("autostart")
        let program = try LaunchRecorder(in: try makeTemporaryDirectory())
        try MainActor.assumeIsolated {
            addTeardownBlock { MainActor.assumeIsolated { AppPreferences.apply(.system) } }
            app.preferences.autostart = Autostart(usesPortal: false, folder: autostartFolder, executable: program.path, searchPath: "")
            app.showPreferences()
            let preferences = try XCTUnwrap(app.preferences.window).window
            @MainActor func saved() -> Preferences {
                app.flushSaves()
                return ConfigStore(directory: directory, secrets: nil).load().config.preferences
            }

            XCTAssertEqual(PreferencesWidgets.flip("Run in Background", in: preferences), false)
            XCTAssertFalse(saved().runInBackground)

            // Dark: every window of the app turns dark at once.
            let style = try XCTUnwrap(PreferencesWidgets.row(titled: "Style", in: preferences))
            XCTAssertFalse(Bool(gboolean: adw_style_manager_get_dark(adw_style_manager_get_default())))
            adw_combo_row_set_selected(gcast(style), 2)
            XCTAssertEqual(saved().appearance, .dark)
            XCTAssertTrue(iterateMainContext(timeout: 2) { Bool(gboolean: adw_style_manager_get_dark(adw_style_manager_get_default())) })
            adw_combo_row_set_selected(gcast(style), 0)
            XCTAssertEqual(saved().appearance, .system)
            XCTAssertTrue(iterateMainContext(timeout: 2) { !Bool(gboolean: adw_style_manager_get_dark(adw_style_manager_get_default())) })

            // Start at login: the XDG autostart entry, written and removed. It names this program by
            // its path (spaces, quotes, `%`, `$` and a backslash in it), which GLib's launcher reads
            // back and starts.
            let entry = autostartFolder.appendingPathComponent("io.github.layerwatch.Layerwatch.desktop")
            XCTAssertEqual(PreferencesWidgets.flip("Start at Login", in: preferences), true)
            XCTAssertTrue(saved().startAtLogin)
            let text = try String(contentsOf: entry, encoding: .utf8)
            XCTAssertTrue(text.contains("\nX-GNOME-Autostart-enabled=true\n"), text)
            XCTAssertTrue(text.contains("100%% done"), "a % is doubled: \(text)")
            XCTAssertEqual(try program.launch(entry), [program.path, "--background"], text)
            let warning = try XCTUnwrap(PreferencesWidgets.row(titled: Self.cannotStartWarning, in: preferences))
            XCTAssertFalse(Bool(gboolean: gtk_widget_get_visible(warning)), "a program to start: no warning")
            XCTAssertEqual(PreferencesWidgets.flip("Start at Login", in: preferences), false)
            XCTAssertFalse(FileManager.default.fileExists(atPath: entry.path), "switched off: the entry is gone")

            // Events and minutes.
            XCTAssertEqual(PreferencesWidgets.flip("Print Paused", in: preferences), false)
            XCTAssertEqual(saved().notifiedEvents, [.finished, .failed, .cancelled, .alert, .cameraLost])
            XCTAssertEqual(PreferencesWidgets.flip("Sound on Failure", in: preferences), false)
            XCTAssertFalse(saved().soundOnFailure)

            // The folders: Save Snapshot, Record and the timelapses follow the chosen ones, and the
            // row names it.
            let pictures = try makeTemporaryDirectory().appendingPathComponent("Shots")
            var chosen = app.library.config.preferences
            chosen.snapshotFolder = pictures.path
            chosen.recordingFolder = "/srv/videos"
            app.library.setPreferences(chosen)
            XCTAssertEqual(window.snapshotFolder.path, pictures.path)
            XCTAssertEqual(window.recordingFolder.path, "/srv/videos")
            XCTAssertEqual(app.timelapses?.videoFolder.path, "/srv/videos")
            let recordings = try XCTUnwrap(PreferencesWidgets.row(titled: "Recordings", in: preferences))
            XCTAssertEqual(adw_action_row_get_subtitle(gcast(recordings)).map { String(cString: $0) }, "/srv/videos")
            let page = try XCTUnwrap(window.tabs.selected)
            XCTAssertTrue(iterateMainContext(timeout: 10) { page.state == .live })
            window.activate("camera.snapshot")
            XCTAssertTrue(iterateMainContext(timeout: 10) {
                (try? FileManager.default.contentsOfDirectory(atPath: pictures.path).count) == 1
            }, "the snapshot went into the chosen folder")
            XCTAssertTrue(iterateMainContext(timeout: 5) { toastTitles(in: window.window).contains { $0.hasSuffix("in \(pictures.path)") } },
                          "the toast names the folder: \(toastTitles(in: window.window))")

            // Set elsewhere (another window, a hand-edited file read again): the rows follow.
            chosen.runInBackground = true
            app.library.setPreferences(chosen)
            let background = try XCTUnwrap(PreferencesWidgets.row(titled: "Run in Background", in: preferences))
            XCTAssertTrue(Bool(gboolean: gtk_switch_get_active(gcast(try XCTUnwrap(PreferencesWidgets.toggle(in: background))))))
            window.close()
        }
    }

    private static let cannotStartWarning = "Layerwatch cannot start when you log in: its program was moved or removed, "
        + "and no other Layerwatch is installed. Install Layerwatch again, then open it once."

    /// The running binary gone (deleted since it started) and no `layerwatch` on PATH: no entry,
    /// and the Preferences say so under the row while the switch is on.
    func testStartAtLoginWithNoProgramToStartWarnsUnderTheRow() throws {
        let (app, window, _) = try startApp(with: [])
        let autostartFolder = try makeTemporaryDirectory().appendingPathComponent("autostart")
        let gone = try makeTemporaryDirectory().appendingPathComponent("layerwatch").path
        let emptyFolder = try makeTemporaryDirectory().path
        try MainActor.assumeIsolated {
            app.preferences.autostart = Autostart(usesPortal: false, folder: autostartFolder, executable: gone + " (deleted)",
                                                  searchPath: "relative/bin:" + emptyFolder)
            app.showPreferences()
            let preferences = try XCTUnwrap(app.preferences.window).window
            let warning = try XCTUnwrap(PreferencesWidgets.row(titled: Self.cannotStartWarning, in: preferences))
            XCTAssertFalse(Bool(gboolean: gtk_widget_get_visible(warning)), "off: nothing to warn of")

            XCTAssertEqual(PreferencesWidgets.flip("Start at Login", in: preferences), true)
            XCTAssertTrue(Bool(gboolean: gtk_widget_get_visible(warning)), "on, with no program to start: the warning shows")
            XCTAssertFalse(FileManager.default.fileExists(atPath: autostartFolder.path), "no entry naming nothing")
            XCTAssertEqual(PreferencesWidgets.flip("Start at Login", in: preferences), false)
            XCTAssertFalse(Bool(gboolean: gtk_widget_get_visible(warning)))
            window.close()
        }
    }

    func testStartAtLoginInsideASandboxAsksTheBackgroundPortal() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("needs a private session bus: run under dbus-run-session (make test)")
        }
        let name = "io.github.layerwatch.TestPortal\(UInt32.random(in: 0...UInt32.max))"
        let portal = try TestServer(script: "background_portal.py", arguments: ["--name", name])
        addTeardownBlock { portal.stop() }
        XCTAssertNotNil(portal.waitFor("ready"))
        let (app, window, _) = try startApp(with: [])
        let folder = try makeTemporaryDirectory()
        try MainActor.assumeIsolated {
            let autostart = Autostart(usesPortal: true, folder: folder, portalName: name)
            var answers: [BackgroundPortal.Answer] = []
            autostart.onPortalAnswer = { answers.append($0) }
            app.preferences.autostart = autostart
            app.showPreferences()
            let preferences = try XCTUnwrap(app.preferences.window).window
            XCTAssertEqual(PreferencesWidgets.flip("Start at Login", in: preferences), true)
            XCTAssertTrue(iterateMainContext(timeout: 5) { !answers.isEmpty })
            XCTAssertEqual(answers.first, BackgroundPortal.Answer(background: true, autostart: true, failure: nil))
            let request = try XCTUnwrap(portal.events(named: "request").first)
            XCTAssertEqual(request.string("parent_window"), "")
            let options = try XCTUnwrap(request.fields["options"] as? [String: Any])
            XCTAssertEqual(options["autostart"] as? Bool, true)
            XCTAssertEqual(options["commandline"] as? [String], ["layerwatch", "--background"])
            XCTAssertFalse((options["reason"] as? String ?? "").isEmpty, "the portal shows why")
            XCTAssertNotNil(options["handle_token"] as? String)

            XCTAssertEqual(PreferencesWidgets.flip("Start at Login", in: preferences), false)
            XCTAssertTrue(iterateMainContext(timeout: 5) { answers.count == 2 })
            XCTAssertEqual(answers.last?.autostart, false)
            let second = try XCTUnwrap(portal.events(named: "request").last?.fields["options"] as? [String: Any])
            XCTAssertEqual(second["autostart"] as? Bool, false)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "no entry written in the sandbox")
            window.close()
        }
    }
}
