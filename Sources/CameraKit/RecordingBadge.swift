import CGtk
import Foundation
import GtkKit
import StreamKit

/// The red dot over a picture while its camera is being recorded, with how long and how large the
/// recording is so far ("● 1:05 · 12.4 MB"); hidden otherwise.
@MainActor
final class RecordingBadge {
    let widget = makeLabel(classes: ["recording-badge"])

    init() {
        gtk_widget_set_visible(widget, false.gboolean)
    }

    /// Shows `status` of a running recording, or hides the badge (nil).
    func show(_ status: StreamRecording.Status?) {
        gtk_widget_set_visible(widget, (status != nil).gboolean)
        guard let status else { return }
        let text = Self.text(of: status)
        // The dot in red, the rest as it is.
        gtk_label_set_markup(gcast(widget), "<span foreground=\"#ff3b30\">●</span>" + markupEscaped(String(text.dropFirst())))
    }

    /// The text it shows while shown (for tests).
    var text: String? {
        Bool(gboolean: gtk_widget_get_visible(widget)) ? String(cString: gtk_label_get_text(gcast(widget))) : nil
    }

    /// "● 1:05 · 12.4 MB"; hours when it has run that long ("● 1:02:05 · 1.2 GB").
    static func text(of status: StreamRecording.Status) -> String {
        let seconds = Int(status.seconds)
        let time = seconds >= 3600 ? String(format: "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60, seconds % 60)
            : String(format: "%d:%02d", seconds / 60, seconds % 60)
        return "● \(time) · \(ByteCountFormatter.string(fromByteCount: status.bytes, countStyle: .file))"
    }
}
