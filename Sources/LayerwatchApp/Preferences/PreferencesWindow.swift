import CGtk
import Foundation
import GtkKit
import JournalKit
import PrinterKit
import StreamKit

/// The Preferences window (Ctrl+,): an AdwPreferencesWindow over the main window, not modal, gone
/// with it, closed by Escape. Its pages — General (background, login, appearance, folders, the
/// print journal: `JournalPreferences`),
/// Notifications (`NotificationPreferences`) and Printers (`PrinterPreferences`) — show what the
/// library holds and follow its changes live; what the user sets is saved at once, and obeyed by
/// whoever observes the preferences.
@MainActor
final class PreferencesWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    private unowned let library: PrinterLibrary
    private let rows: PreferenceRows
    let notifications: NotificationPreferences
    let printers: PrinterPreferences
    let journal: JournalPreferences
    private var preferencesObservation: PrinterLibrary.Observation?
    private var printersObservation: PrinterLibrary.Observation?
    /// Each folder row's way to show the folder chosen now.
    private var folderRefreshers: [@MainActor (Preferences) -> Void] = []
    /// The folder chooser while it is open.
    private var chooser: GObjectRef<OpaquePointer>?

    /// Start at login as it is obeyed, for the warning when it cannot be.
    private let autostart: Autostart

    init(parent: UnsafeMutablePointer<GtkWidget>?, library: PrinterLibrary, actions: PrinterPreferences.Actions, autostart: Autostart,
         journal store: JournalStore?) {
        self.library = library
        self.autostart = autostart
        rows = PreferenceRows(library: library)
        window = adw_preferences_window_new()
        gtk_window_set_title(gcast(window), tr("Preferences"))
        gtk_window_set_modal(gcast(window), false.gboolean)
        gtk_window_set_destroy_with_parent(gcast(window), true.gboolean)
        gtk_window_set_default_size(gcast(window), 640, 720)
        if let parent { gtk_window_set_transient_for(gcast(window), gcast(parent)) }
        adw_preferences_window_set_search_enabled(gcast(window), false.gboolean)
        notifications = NotificationPreferences(rows: rows, library: library)
        printers = PrinterPreferences(actions: actions, parent: window)
        journal = JournalPreferences(rows: rows, library: library, store: store)
        adw_preferences_window_add(gcast(window), gcast(generalPage()))
        adw_preferences_window_add(gcast(window), gcast(notifications.page))
        adw_preferences_window_add(gcast(window), gcast(printers.page))
        preferencesObservation = library.observePreferences { [weak self] preferences in
            guard let self else { return }
            rows.refresh(preferences)
            folderRefreshers.forEach { $0(preferences) }
        }
        printersObservation = library.observePrinters { [weak self] saved in
            self?.notifications.show(saved)
            self?.printers.show(saved)
        }
    }

    func present() {
        gtk_window_present(gcast(window))
    }

    private func generalPage() -> UnsafeMutablePointer<GtkWidget> {
        let running = PreferenceRows.group(tr("Running"), [
            rows.switchRow(tr("Run in Background"),
                           subtitle: tr("Closing the window keeps watching your printers. Quit with Ctrl+Q."), \.runInBackground),
            rows.switchRow(tr("Start at Login"), subtitle: tr("Watch your printers from the moment you log in, without a window."),
                           \.startAtLogin),
            rows.warningRow(tr("Layerwatch cannot start when you log in: its program was moved or removed, and no other Layerwatch is installed. Install Layerwatch again, then open it once."),
                            shownWhen: { [autostart] in $0.startAtLogin && autostart.cannotStart }),
        ])
        let appearance = PreferenceRows.group(tr("Appearance"), [
            rows.choiceRow(tr("Style"), choices: [(Preferences.Appearance.system, tr("Follow System")), (.light, tr("Light")), (.dark, tr("Dark"))],
                           \.appearance),
        ])
        let folders = PreferenceRows.group(tr("Folders"), [
            folderRow(tr("Snapshots"), SavedFiles.snapshotFolder, \.snapshotFolder),
            folderRow(tr("Recordings"), SavedFiles.recordingFolder, \.recordingFolder),
        ])
        return PreferenceRows.page(tr("General"), icon: "preferences-system-symbolic", [running, appearance, folders, journal.group])
    }

    /// A row naming the folder `folder` gives and a button choosing another.
    private func folderRow(_ title: String, _ folder: @escaping (Preferences) -> URL,
                           _ field: WritableKeyPath<Preferences, String?>) -> UnsafeMutablePointer<GtkWidget> {
        let button = gtk_button_new_from_icon_name("document-open-symbolic")!
        gtk_widget_add_css_class(button, "flat")
        gtk_widget_set_tooltip_text(button, tr("Choose a Folder"))
        setAccessibleLabel(button, String(format: tr("Choose the Folder for %@"), title))
        let row = PreferenceRows.row(title, suffix: button)
        adw_action_row_set_activatable_widget(gcast(row), button)
        folderRefreshers.append { adw_action_row_set_subtitle(gcast(row), SavedFiles.shownName(of: folder($0))) }
        connectSignal(button, "clicked") { [weak self] in self?.chooseFolder(title, field) }
        return row
    }

    /// GTK's folder chooser (the portal's where there is one); the chosen folder is saved.
    private func chooseFolder(_ title: String, _ field: WritableKeyPath<Preferences, String?>) {
        let chooser = gtk_file_chooser_native_new(title, gcast(window), GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER, nil, nil)!
        gtk_native_dialog_set_modal(gcast(chooser), true.gboolean)
        self.chooser = GObjectRef(adopting: chooser)
        connectInt32Signal(chooser, "response") { [weak self] response in
            guard let self else { return }
            defer { self.chooser = nil }
            guard response == GTK_RESPONSE_ACCEPT.rawValue,
                  let file = gtk_file_chooser_get_file(gcast(chooser)).map({ GObjectRef(adopting: $0) }),
                  let path = String(takingGLibString: g_file_get_path(file.pointer)) else { return }
            rows.change { $0[keyPath: field] = path }
        }
        gtk_native_dialog_show(gcast(chooser))
    }
}
