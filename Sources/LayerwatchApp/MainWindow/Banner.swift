import CGtk
import GtkKit
import StreamKit

/// A strip at the top of the window for what must not go unnoticed (libadwaita 1.2 has no
/// AdwBanner): a message, a button acting on it where it has one, and Dismiss, sliding in and out.
/// Messages wait their turn, the more important first: a problem (a config file or journal that
/// could not be read) before news (what ended while the user was away), which a newer news
/// replaces; dismissing or acting on the message shown shows the next.
@MainActor
final class Banner {
    /// A button acting on a message: it activates the window's action `action` with `target`.
    struct Button: Equatable {
        let label: String
        let action: String
        let target: Int64
    }

    private struct Message: Equatable {
        let text: String
        let button: Button?
    }

    let widget: UnsafeMutablePointer<GtkWidget>
    /// The strip itself: warning-coloured for a problem, accent-coloured for news (`news`).
    private let strip: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    /// The shown message's button; hidden when it has none.
    let button: UnsafeMutablePointer<GtkWidget>
    private var problems: [Message] = []
    private var news: Message?

    init() {
        widget = gtk_revealer_new()
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        strip = box
        gtk_widget_add_css_class(box, "banner")
        label = makeLabel(wraps: true, leading: true)
        gtk_widget_set_hexpand(label, true.gboolean)
        button = gtk_button_new()
        let dismiss = gtk_button_new_with_label(tr("Dismiss"))!
        for child in [label, button, dismiss] {
            if child != label { gtk_widget_set_valign(child, GTK_ALIGN_CENTER) }
            gtk_box_append(gcast(box), child)
        }
        connectSignal(dismiss, "clicked") { [weak self] in self?.next() }
        connectSignal(button, "clicked") { [weak self] in self?.next() }
        gtk_revealer_set_child(gcast(widget), box)
        refresh()
    }

    /// The message shown, while the banner is.
    var text: String? {
        Bool(gboolean: gtk_revealer_get_reveal_child(gcast(widget))) ? String(cString: gtk_label_get_text(gcast(label))) : nil
    }

    /// Shows a problem, after the problems before it and before any news.
    func show(_ text: String) {
        let message = Message(text: text, button: nil)
        guard !problems.contains(message) else { return }
        problems.append(message)
        refresh()
    }

    /// Shows news with its `button`, once no problem is waiting; it replaces older news.
    func showNews(_ text: String, button: Button) {
        news = Message(text: text, button: button)
        refresh()
    }

    /// The message shown is done with: the next one shows, or the banner slides out.
    private func next() {
        if problems.isEmpty { news = nil } else { problems.removeFirst() }
        refresh()
    }

    private func refresh() {
        guard let message = problems.first ?? news else { return gtk_revealer_set_reveal_child(gcast(widget), false.gboolean) }
        gtk_label_set_text(gcast(label), message.text)
        // News is not an alarm: only a problem takes the warning's colour.
        if message.button != nil { gtk_widget_add_css_class(strip, "news") } else { gtk_widget_remove_css_class(strip, "news") }
        gtk_widget_set_visible(button, (message.button != nil).gboolean)
        if let action = message.button {
            gtk_button_set_label(gcast(button), action.label)
            gtk_actionable_set_action_name(gcast(button), action.action)
            gtk_actionable_set_action_target_value(gcast(button), g_variant_new_int64(gint64(action.target)))
        } else {
            gtk_actionable_set_action_name(gcast(button), nil)
        }
        gtk_revealer_set_reveal_child(gcast(widget), true.gboolean)
    }
}
