import CGtk
import GtkKit
import StreamKit

/// The question GNOME asks before something that cannot be undone (removing a printer, stopping a
/// print): an AdwMessageDialog over `parent` with Cancel — the default, and what Escape gives — and
/// the action in the destructive style.
@MainActor
enum DestructiveQuestion {
    /// Presents the question; `onConfirm` runs only when the action is chosen. Returns the dialog
    /// (for tests), which destroys itself when answered.
    @discardableResult
    static func present(over parent: UnsafeMutablePointer<GtkWidget>, heading: String, body: String, action: String,
                        onConfirm: @escaping @MainActor () -> Void) -> OpaquePointer {
        let dialog = adw_message_dialog_new(gcast(parent), heading, body)!
        gtk_window_set_destroy_with_parent(gcast(dialog), true.gboolean)
        adw_message_dialog_add_response(gcast(dialog), "cancel", tr("Cancel"))
        adw_message_dialog_add_response(gcast(dialog), "confirm", action)
        adw_message_dialog_set_response_appearance(gcast(dialog), "confirm", ADW_RESPONSE_DESTRUCTIVE)
        adw_message_dialog_set_default_response(gcast(dialog), "cancel")
        adw_message_dialog_set_close_response(gcast(dialog), "cancel")
        connectSignal(dialog, "response::confirm") { (_: UnsafeMutableRawPointer?) in onConfirm() }
        gtk_window_present(gcast(dialog))
        return OpaquePointer(dialog)
    }
}
