import CGtk
import GtkKit

/// The header bar's primary menu (Add Printer, Edit Printer, Keyboard Shortcuts, About), the
/// keyboard shortcuts window and the About window.
@MainActor
enum AppMenu {
    /// A menu button for the header bar.
    static func button() -> UnsafeMutablePointer<GtkWidget> {
        let menu = g_menu_new()!
        let printers = g_menu_new()!
        g_menu_append(printers, "Add Printer…", "win.add-printer")
        g_menu_append(printers, "Edit Printer…", "win.edit-printer")
        let help = g_menu_new()!
        g_menu_append(help, "Keyboard Shortcuts", "win.show-help-overlay")
        g_menu_append(help, "About Layerwatch", "app.about")
        g_menu_append_section(menu, nil, gcast(printers))
        g_menu_append_section(menu, nil, gcast(help))
        let button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(gcast(button), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(gcast(button), gcast(menu))
        gtk_widget_set_tooltip_text(button, "Main Menu")
        lw_accessible_set_label(button, "Main Menu")
        for model in [menu, printers, help] { g_object_unref(model.rawGObject) }
        return button
    }

    /// The About window, transient for `parent`.
    static func showAbout(parent: UnsafeMutablePointer<GtkWidget>?, version: String) {
        let about = adw_about_window_new()!
        adw_about_window_set_application_name(gcast(about), "Layerwatch")
        adw_about_window_set_application_icon(gcast(about), LayerwatchApplication.applicationID)
        adw_about_window_set_version(gcast(about), version)
        adw_about_window_set_developer_name(gcast(about), "Layerwatch developers")
        adw_about_window_set_comments(gcast(about),
            "Watch your 3D printers' cameras: Bambu Lab (RTSPS and P1/A1), RTSP and MJPEG cameras, with a mini window that stays on top.")
        adw_about_window_set_website(gcast(about), "https://github.com/layerwatch/layerwatch")
        adw_about_window_set_issue_url(gcast(about), "https://github.com/layerwatch/layerwatch/issues")
        adw_about_window_set_license_type(gcast(about), GTK_LICENSE_MIT_X11)
        if let parent { gtk_window_set_transient_for(gcast(about), gcast(parent)) }
        gtk_window_present(gcast(about))
    }

    /// The Ctrl+? window listing every shortcut, built from GtkBuilder markup.
    static func shortcutsWindow() -> UnsafeMutablePointer<GtkWidget> {
        let groups: [(String, [(String, String)])] = [
            ("Printers", [("<Control>t", "Add a printer"), ("<Control>e", "Edit the printer"),
                          ("<Control>w", "Close the tab"), ("<Control>Page_Down", "Next tab"),
                          ("<Control>Page_Up", "Previous tab"), ("<Alt>1", "Go to tab 1…9")]),
            ("Camera", [("<Control>s", "Save a snapshot"), ("<Control>i", "Show stats"),
                        ("<Control>r", "Reconnect"), ("<Control><Shift>p", "Pop out the mini window"),
                        ("F11", "Fullscreen"), ("Escape", "Leave fullscreen")]),
            ("General", [("<Control>question", "Keyboard shortcuts")]),
        ]
        let markup = groups.map { title, items in
            let shortcuts = items.map { accelerator, label in
                """
                <child><object class="GtkShortcutsShortcut"><property name="accelerator">\(escape(accelerator))</property>\
                <property name="title">\(escape(label))</property></object></child>
                """
            }.joined()
            return "<child><object class=\"GtkShortcutsGroup\"><property name=\"title\">\(title)</property>\(shortcuts)</object></child>"
        }.joined()
        let xml = """
        <interface><object class="GtkShortcutsWindow" id="shortcuts"><property name="modal">1</property>\
        <child><object class="GtkShortcutsSection"><property name="section-name">main</property>\(markup)</object></child>\
        </object></interface>
        """
        let builder = gtk_builder_new_from_string(xml, -1)!
        defer { g_object_unref(builder.rawGObject) }
        let window: UnsafeMutablePointer<GtkWidget> = gcast(gtk_builder_get_object(builder, "shortcuts")!)
        g_object_ref_sink(window.rawGObject)
        return window
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
