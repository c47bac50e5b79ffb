import CGtk
import Foundation
import GtkKit

/// The chores the main and mini windows share: a toast in their overlay, one whose title wraps,
/// and their size.
@MainActor
enum WindowChores {
    /// Shows `text` (plain text: a toast's title is markup, so it is escaped) in an AdwToastOverlay
    /// for `seconds`; with `file`, a saved file's toast that opens it or shows it in its folder.
    static func toast(_ text: String, file: URL? = nil, in overlay: UnsafeMutablePointer<GtkWidget>, seconds: guint) {
        let toast = file.map { SavedFileToast.make(text, file: $0) } ?? adw_toast_new(markupEscaped(text))!
        adw_toast_set_timeout(toast, seconds)
        adw_toast_overlay_add_toast(gcast(overlay), toast)
    }

    /// A toast (AdwToast, floating: the overlay takes it) titled `text` wrapped at `width`
    /// characters a line: libadwaita 1.2's own title is one line, ellipsized, which cuts a sentence
    /// (or a file's path) before it says what to do.
    static func wrappingToast(_ text: String, width: Int32) -> OpaquePointer {
        let toast = adw_toast_new("")!
        let title = gtk_label_new(text)!
        gtk_label_set_wrap(gcast(title), true.gboolean)
        gtk_label_set_wrap_mode(gcast(title), PANGO_WRAP_WORD_CHAR)
        gtk_label_set_max_width_chars(gcast(title), width)
        gtk_label_set_xalign(gcast(title), 0)
        gtk_widget_add_css_class(title, "heading")  // as the toast's own title
        adw_toast_set_custom_title(toast, title)
        return toast
    }

    /// The window's size when not maximized or fullscreen (what to restore next time).
    static func size(of window: UnsafeMutablePointer<GtkWidget>) -> (width: Int32, height: Int32) {
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(gcast(window), &width, &height)
        return (width, height)
    }
}
