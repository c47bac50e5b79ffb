import CGtk
import Foundation
import GtkKit

/// The toast saying where a snapshot, a recording or a timelapse went, offering what GNOME Shell's
/// screenshot notification offers: the file's name is a link that opens it (Open: the desktop's
/// application for it, as clicking that notification opens the picture), and the toast's one button
/// is Show in Files (the file selected in its folder). libadwaita 1.2's toast has a single button;
/// Show in Files takes it because Open is one click on the name the toast already shows, while
/// finding the folder is the step the user cannot do from the toast otherwise. Both go through the
/// feature table's application actions (`Feature.openFile`, `Feature.showInFiles`) with the path.
@MainActor
enum SavedFileToast {
    /// A toast (AdwToast, floating: the overlay takes it) titled `text`, which names `file`.
    static func make(_ text: String, file: URL) -> OpaquePointer {
        let toast = adw_toast_new("")!
        let title = gtk_label_new(nil)!
        gtk_label_set_markup(gcast(title), linkedMarkup(text, file: file))
        gtk_label_set_wrap(gcast(title), true.gboolean)
        gtk_label_set_wrap_mode(gcast(title), PANGO_WRAP_WORD_CHAR)  // a long file name breaks too
        gtk_label_set_max_width_chars(gcast(title), 48)  // two lines rather than past the window
        gtk_label_set_xalign(gcast(title), 0)
        gtk_widget_add_css_class(title, "heading")  // as the toast's own title
        gtk_widget_add_css_class(title, "saved-file")  // its link in the toast's own colour (style.css)
        gtk_widget_set_tooltip_text(title, file.path)
        connectBoolSignal(title, "activate-link") { _ in
            gtk_widget_activate_action_variant(title, Feature.openFile.actionName, g_variant_new_string(file.path))
            return true
        }
        adw_toast_set_custom_title(toast, title)
        adw_toast_set_button_label(toast, Feature.showInFiles.title)
        adw_toast_set_action_name(toast, Feature.showInFiles.actionName)
        adw_toast_set_action_target_value(toast, g_variant_new_string(file.path))
        return toast
    }

    /// `text` as markup, the first mention of the file's name a link (“Saved “<a>X1C….png</a>” in…”);
    /// the whole text a link when the name is not in it.
    static func linkedMarkup(_ text: String, file: URL) -> String {
        let link = { (words: String) in "<a href=\"\(markupEscaped(file.absoluteString))\">\(words)</a>" }
        let escaped = markupEscaped(text), name = markupEscaped(file.lastPathComponent)
        guard let range = escaped.range(of: name) else { return link(escaped) }
        return escaped.replacingCharacters(in: range, with: link(name))
    }
}
