import CGtk
import Foundation
import GtkKit

/// The two chores the main and mini windows share: a toast in their overlay, and their size.
@MainActor
enum WindowChores {
    /// Shows `text` (plain text: a toast's title is markup, so it is escaped) in an AdwToastOverlay
    /// for `seconds`; with `file`, a saved file's toast that opens it or shows it in its folder.
    static func toast(_ text: String, file: URL? = nil, in overlay: UnsafeMutablePointer<GtkWidget>, seconds: guint) {
        let toast = file.map { SavedFileToast.make(text, file: $0) } ?? adw_toast_new(markupEscaped(text))!
        adw_toast_set_timeout(toast, seconds)
        adw_toast_overlay_add_toast(gcast(overlay), toast)
    }

    /// The window's size when not maximized or fullscreen (what to restore next time).
    static func size(of window: UnsafeMutablePointer<GtkWidget>) -> (width: Int32, height: Int32) {
        var width: Int32 = 0, height: Int32 = 0
        gtk_window_get_default_size(gcast(window), &width, &height)
        return (width, height)
    }
}
