import CGtk
import CLayerwatch
import GtkKit
import StreamKit

/// The header bar's primary menu and the keyboard shortcuts window, both made from the feature
/// table, and the About window.
@MainActor
enum AppMenu {
    /// A menu button for the header bar: one section per menu section the features name.
    static func button() -> UnsafeMutablePointer<GtkWidget> {
        let menu = GObjectRef(adopting: g_menu_new()!)
        let items = Feature.placed(\.menuSection)
        for section in Set(items.map(\.value)).sorted() {
            let part = GObjectRef(adopting: g_menu_new()!)
            for (feature, _) in items where feature.placements.contains(.menu(section: section)) {
                feature.appendItem(to: part.pointer)
            }
            g_menu_append_section(menu.pointer, nil, gcast(part.pointer))
        }
        let button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(gcast(button), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(gcast(button), gcast(menu.pointer))
        gtk_menu_button_set_primary(gcast(button), true.gboolean)  // F10 opens it, as in every GNOME app
        gtk_widget_set_tooltip_text(button, tr("Main Menu"))
        setAccessibleLabel(button, tr("Main Menu"))
        return button
    }

    /// The About window, transient for `parent`.
    static func showAbout(parent: UnsafeMutablePointer<GtkWidget>?, version: String) {
        let about = adw_about_window_new()!
        adw_about_window_set_application_name(gcast(about), "Layerwatch")
        adw_about_window_set_application_icon(gcast(about), LayerwatchApplication.applicationID)
        adw_about_window_set_version(gcast(about), version)
        adw_about_window_set_developer_name(gcast(about), tr("Layerwatch developers"))
        adw_about_window_set_comments(gcast(about), comments)
        adw_about_window_set_website(gcast(about), "https://github.com/layerwatch/layerwatch")
        adw_about_window_set_issue_url(gcast(about), "https://github.com/layerwatch/layerwatch/issues")
        adw_about_window_set_license_type(gcast(about), GTK_LICENSE_MIT_X11)
        if let parent {
            gtk_window_set_transient_for(gcast(about), gcast(parent))
            // One of the application's windows, so its shortcuts (Ctrl+Q) work in it too.
            gtk_window_set_application(gcast(about), gtk_window_get_application(gcast(parent)))
        }
        gtk_window_present(gcast(about))
    }

    /// What About says Layerwatch does: what it watches, then what it does with it.
    static var comments: String {
        [tr("Watch your 3D printers: their cameras live, and how each print is going — progress, layers and time left — from Bambu Lab printers (X1, P1, A1 and later), Klipper printers through Moonraker, OctoPrint, Creality printers (K1, K2, Hi and others), and any RTSP, MJPEG or WebRTC camera."),
         tr("Layerwatch tells you when a print finishes, fails or pauses and when a Bambu printer raises an alert — with its window closed too —, shows every printer at once in the farm view, pauses, resumes and stops prints, keeps a printer in a mini window on top of your work, and records a camera or makes a timelapse of each print.")]
            .joined(separator: "\n\n")
    }

    /// The Ctrl+? window: data/shortcuts.ui with every feature's shortcut added to its group. Nil,
    /// with a warning in the log, when the file is missing or broken.
    static func shortcutsWindow() -> GObjectRef<UnsafeMutablePointer<GtkWidget>>? {
        guard let file = DataFiles.file("shortcuts.ui") else {
            GLibLog.warning("shortcuts.ui was not found: the keyboard shortcuts window is not available")
            return nil
        }
        let builder = GObjectRef(adopting: gtk_builder_new()!)
        gtk_builder_set_translation_domain(builder.pointer, Localization.domain)
        var error: UnsafeMutablePointer<GError>?
        guard Bool(gboolean: gtk_builder_add_from_file(builder.pointer, file.path, &error)),
              let window = gtk_builder_get_object(builder.pointer, "shortcuts") else {
            GLibLog.warning("\(file.path) could not be loaded: \(error.map { String(cString: $0.pointee.message) } ?? "no window in it")")
            g_clear_error(&error)
            return nil
        }
        for feature in Feature.all {
            guard let group = feature.shortcutGroup, let accelerator = feature.accelerators.first,
                  let groupWidget = gtk_builder_get_object(builder.pointer, group.rawValue) else { continue }
            lw_shortcuts_group_add_shortcut(gcast(groupWidget), accelerator, feature.title)
        }
        return GObjectRef(retaining: gcast(window))
    }
}
