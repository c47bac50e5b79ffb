import CGtk
import GtkKit

/// Layerwatch's stylesheet (data/style.css) on top of libadwaita, and its own icon.
@MainActor
enum AppStyle {
    /// Installs the stylesheet for every window on the default display, and makes the app's own
    /// icon findable when it runs from the source tree. A missing stylesheet is logged; the app
    /// still runs, in libadwaita's plain look.
    static func install() {
        if let icons = DataFiles.iconFolder() {
            gtk_icon_theme_add_search_path(gtk_icon_theme_get_for_display(gdk_display_get_default()), icons.path)
        }
        gtk_window_set_default_icon_name(LayerwatchApplication.applicationID)
        guard let stylesheet = DataFiles.file("style.css") else {
            GLibLog.warning("style.css was not found: Layerwatch runs without its own style")
            return
        }
        let provider = GObjectRef(adopting: gtk_css_provider_new()!)
        gtk_css_provider_load_from_path(provider.pointer, stylesheet.path)
        gtk_style_context_add_provider_for_display(gdk_display_get_default(), gcast(provider.pointer),
                                                   guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }
}
