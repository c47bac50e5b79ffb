import CGtk
import GtkKit

/// Layerwatch's own CSS on top of libadwaita: the black video area, the status card, the LIVE
/// badge, the stats readout, and the fade-in of the first frame.
@MainActor
enum AppStyle {
    static let css = """
    .camera-area { background-color: black; }
    picture.camera-picture { transition: opacity 400ms ease-out; }
    picture.camera-picture.waiting { opacity: 0; }
    picture.camera-picture.stale { opacity: 0.35; }
    .status-card {
        background-color: alpha(black, 0.62); color: white; border-radius: 16px;
        padding: 24px 32px; margin: 24px;
    }
    .status-card label { color: white; }
    .live-badge {
        background-color: #e01b24; color: white; font-weight: bold; font-size: 0.8em;
        border-radius: 4px; padding: 2px 7px; margin: 10px; letter-spacing: 1px;
    }
    .frame-age {
        background-color: alpha(black, 0.6); color: white; font-size: 0.85em;
        border-radius: 4px; padding: 2px 7px; margin: 10px;
    }
    .stats-overlay {
        font-family: monospace; font-size: 0.85em; color: white;
        background-color: alpha(black, 0.6); border-radius: 6px; padding: 6px 9px; margin: 10px;
    }
    .control-bar { padding: 6px; }
    .printer-form { padding: 18px 24px 24px 24px; }
    .banner { background-color: @warning_bg_color; color: @warning_fg_color; padding: 8px 16px; }
    .mini-controls { margin: 6px; }
    """

    /// Installs the CSS for every window on the default display, and makes the app's own icon
    /// findable when it runs from the source tree.
    static func install() {
        if let icons = DataFiles.iconFolder() {
            gtk_icon_theme_add_search_path(gtk_icon_theme_get_for_display(gdk_display_get_default()), icons.path)
        }
        gtk_window_set_default_icon_name(LayerwatchApplication.applicationID)
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_data(provider, css, -1)
        gtk_style_context_add_provider_for_display(gdk_display_get_default(), gcast(provider),
                                                   guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(provider.rawGObject)
    }
}
