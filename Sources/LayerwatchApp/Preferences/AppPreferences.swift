import CGtk
import GtkKit
import JournalKit
import PrinterKit

/// What the application does with the app-wide preferences that no window owns: the appearance
/// (AdwStyleManager's colour scheme, from start on) and start at login (`Autostart`), both
/// following every change, the watch for lost cameras (`CameraLossWatch`); and the one
/// Preferences window, while it is open.
@MainActor
final class AppPreferences {
    /// Start at login; tests put one writing into their own folder, or asking a fake portal (it
    /// takes the preference as it is now, and then each change).
    var autostart = Autostart() {
        didSet { startAtLogin.map(autostart.apply) }
    }
    /// The preference as last seen.
    private var startAtLogin: Bool?
    /// The Preferences window while it is open.
    private(set) weak var window: PreferencesWindow?
    /// Keeps the open window's object alive until GTK destroys the window.
    private var openWindow: PreferencesWindow?
    private var observation: PrinterLibrary.Observation?
    private(set) var cameraLoss: CameraLossWatch?

    /// Obeys `application`'s preferences from now on.
    func follow(_ application: LayerwatchApplication) {
        cameraLoss = CameraLossWatch(library: application.library, cameras: { [weak application] in
            application?.window?.tabs.all.map { ($0.printerID, $0.state) } ?? []
        }, tell: { [weak application] id, minutes in application?.notifier?.notifyCameraLost(of: id, minutes: minutes) })
        observation = application.library.observePreferences { [weak self] preferences in
            Self.apply(preferences.appearance)
            self?.startAtLogin = preferences.startAtLogin
            self?.autostart.apply(preferences.startAtLogin)
        }
    }

    /// Light, dark, or as the desktop says, for every window of the app.
    static func apply(_ appearance: Preferences.Appearance) {
        let scheme = switch appearance {
        case .system: ADW_COLOR_SCHEME_DEFAULT
        case .light: ADW_COLOR_SCHEME_FORCE_LIGHT
        case .dark: ADW_COLOR_SCHEME_FORCE_DARK
        }
        adw_style_manager_set_color_scheme(adw_style_manager_get_default(), scheme)
    }

    /// Presents the Preferences window, making it if none is open.
    func show(over parent: UnsafeMutablePointer<GtkWidget>?, library: PrinterLibrary, actions: PrinterPreferences.Actions,
              journal: JournalStore?) {
        if let window { return window.present() }
        let window = PreferencesWindow(parent: parent, library: library, actions: actions, autostart: autostart, journal: journal)
        openWindow = window
        self.window = window
        connectSignal(window.window, "destroy") { [weak self] in self?.openWindow = nil }
        window.present()
    }
}
