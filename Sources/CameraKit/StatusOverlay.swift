import CGtk
import Foundation
import GtkKit
import StreamKit

/// The card in the middle of the video that says what the stream is doing when it isn't showing
/// pictures: connecting (spinner, elapsed time), reconnecting (countdown, Retry now), failed (the
/// classified message, Retry), access code rejected. Hidden while live.
@MainActor
final class StatusOverlay {
    let widget: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let icon: UnsafeMutablePointer<GtkWidget>
    private let title: UnsafeMutablePointer<GtkWidget>
    private let detail: UnsafeMutablePointer<GtkWidget>
    /// The card's one button (Retry, Retry Now, Reconnect, Edit Access Code…).
    let button: UnsafeMutablePointer<GtkWidget>
    private var connectingSince: Date?

    /// Called when the user presses the card's button (Retry, Retry now, Reconnect).
    var onRetry: @MainActor () -> Void = {}
    /// Set for saved printers: a rejected access code then offers to edit it instead of retrying.
    var onEdit: (@MainActor () -> Void)?
    private var buttonEdits = false

    init() {
        widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 8)
        gtk_widget_add_css_class(widget, "status-card")
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
        spinner = gtk_spinner_new()
        gtk_widget_set_size_request(spinner, 32, 32)
        icon = gtk_image_new()
        gtk_image_set_pixel_size(gcast(icon), 48)
        title = makeLabel(classes: ["title-3"])
        detail = makeLabel(wraps: true)
        gtk_label_set_max_width_chars(gcast(detail), 40)
        gtk_label_set_justify(gcast(detail), GTK_JUSTIFY_CENTER)
        button = gtk_button_new()
        gtk_widget_set_halign(button, GTK_ALIGN_CENTER)
        gtk_widget_add_css_class(button, "pill")
        for child in [spinner, icon, title, detail, button] {
            gtk_box_append(gcast(widget), child)
        }
        connectSignal(button, "clicked") { [weak self] in
            guard let self else { return }
            if buttonEdits, let onEdit { onEdit() } else { onRetry() }
        }
    }

    /// Shows what `state` means for printer `name`'s camera, in `terms` when its printer family gave
    /// some (else as any camera's); `now` drives
    /// the elapsed and countdown texts.
    func apply(_ state: SessionState, name: String, terms: CameraTerms?, now: Date = Date()) {
        switch state {
        case .idle, .connecting:
            if connectingSince == nil { connectingSince = now }
            let elapsed = Int(now.timeIntervalSince(connectingSince ?? now))
            show(spinner: true, icon: nil, title: String(format: tr("Connecting to %@…"), name),
                 detail: elapsed >= 1 ? String(format: tr("%d s"), elapsed) : "", button: nil)
        case .live:
            connectingSince = nil
            gtk_widget_set_visible(widget, false.gboolean)
        case .reconnecting(let attempt, let retryAt, let cause):
            connectingSince = nil
            let seconds = max(0, Int(retryAt.timeIntervalSince(now).rounded(.up)))
            let countdown = seconds > 0 ? String(format: tr("Reconnecting in %d s"), seconds) : tr("Reconnecting…")
            show(spinner: false, icon: "network-offline-symbolic", title: countdown,
                 detail: attempt > 1 ? String(format: tr("%@ (attempt %d)"), cause.userMessage(in: terms), attempt) : cause.userMessage(in: terms),
                 button: tr("Retry Now"))
        case .failed(let failure):
            connectingSince = nil
            if failure == .authRejected, let terms {
                show(spinner: false, icon: "dialog-password-symbolic", title: terms.rejectedTitle, detail: terms.rejectedDetail,
                     button: onEdit == nil ? tr("Retry") : terms.editCredentials)
                buttonEdits = onEdit != nil
            } else {
                show(spinner: false, icon: "dialog-error-symbolic", title: String(format: tr("Can't show %@"), name),
                     detail: failure.userMessage(in: terms), button: tr("Retry"))
            }
        case .stopped:
            connectingSince = nil
            show(spinner: false, icon: "media-playback-stop-symbolic", title: tr("Stopped"), detail: "", button: tr("Reconnect"))
        }
    }

    /// The texts shown now (for tests and accessibility checks).
    var titleText: String { String(cString: gtk_label_get_text(gcast(title))) }
    var detailText: String { String(cString: gtk_label_get_text(gcast(detail))) }
    var buttonText: String? {
        Bool(gboolean: gtk_widget_get_visible(button)) ? String(cString: gtk_button_get_label(gcast(button))) : nil
    }
    var isShown: Bool { Bool(gboolean: gtk_widget_get_visible(widget)) }

    private func show(spinner spinning: Bool, icon iconName: String?, title text: String, detail detailText: String,
                      button buttonLabel: String?) {
        buttonEdits = false
        gtk_widget_set_visible(widget, true.gboolean)
        gtk_widget_set_visible(spinner, spinning.gboolean)
        if spinning { gtk_spinner_start(gcast(spinner)) } else { gtk_spinner_stop(gcast(spinner)) }
        gtk_widget_set_visible(icon, (iconName != nil).gboolean)
        if let iconName { gtk_image_set_from_icon_name(gcast(icon), iconName) }
        gtk_label_set_text(gcast(title), text)
        gtk_label_set_text(gcast(detail), detailText)
        gtk_widget_set_visible(detail, (!detailText.isEmpty).gboolean)
        gtk_widget_set_visible(button, (buttonLabel != nil).gboolean)
        if let buttonLabel { gtk_button_set_label(gcast(button), buttonLabel) }
    }
}
