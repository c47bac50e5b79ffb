import CGtk
import GtkKit
import PrinterKit
import StreamKit

/// The printer dialog's list of the printer's own cameras, in the order its tab's switcher shows
/// them: a row each (its name, its address with passwords masked, or "the printer's own camera",
/// a Creality printer's with how it streams), with buttons to move it up or down and to remove it
/// (a Bambu or Creality printer's own camera stays), and
/// "Add Camera". Selecting a row lets the dialog's URL and mounting fields edit that camera. The
/// dialog owns the cameras; the list shows them and says what the user asked.
@MainActor
final class PrinterCameraList {
    /// What the user asked of the list.
    enum Request {
        case select(Int), moveUp(Int), moveDown(Int), remove(Int), add
    }

    let field: FormField
    /// The heading over the printer's cameras, when no "Find Cameras" above already says it.
    static var title: String { tr("Cameras") }
    var onRequest: @MainActor (Request) -> Void = { _ in }
    private let listBox = gtk_list_box_new()!
    private let addButton = gtk_button_new_with_label(tr("Add Camera"))!
    private var rows: [UnsafeMutablePointer<GtkWidget>] = []
    /// True while rows are being rebuilt, so the list's own selection changes are not requests.
    private var rebuilding = false

    init() {
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_widget_add_css_class(listBox, "boxed-list")
        gtk_list_box_set_selection_mode(gcast(listBox), GTK_SELECTION_SINGLE)
        gtk_widget_set_halign(addButton, GTK_ALIGN_START)
        gtk_box_append(gcast(box), listBox)
        gtk_box_append(gcast(box), addButton)
        field = FormField(title: Self.title, control: box, hint: Self.hint)
        connectSignal(addButton, "clicked") { [weak self] in self?.onRequest(.add) }
        connectSignal(listBox, "row-selected") { [weak self] (row: UnsafeMutableRawPointer?) in
            guard let self, !rebuilding, let row else { return }
            onRequest(.select(Int(gtk_list_box_row_get_index(row.assumingMemoryBound(to: GtkListBoxRow.self)))))
        }
    }

    private static let hint = tr("Select a camera to change its URL and mounting. The printer's tab shows the first and switches between them.")

    /// Shows `cameras` of a printer of `kind`, the one at `selected` selected, its own camera as
    /// `ownCamera` says when its variant says (a Creality family's); a Klipper or OctoPrint printer
    /// without any is said to be watched without a picture.
    func show(_ cameras: [PrinterCamera], kind: Printer.Kind, ownCamera: String?, selected: Int?) {
        field.setHint(cameras.isEmpty && kind.canGoWithoutCamera
            ? tr("No camera: the printer will be watched without a picture, its tab showing its status and the job's thumbnail. “Find Cameras” or “Add Camera” gives it one.")
            : Self.hint)
        rebuilding = true
        defer { rebuilding = false }
        rows.forEach { gtk_list_box_remove(gcast(listBox), $0) }
        let redactor = Redactor(secrets: [])
        let own = ownCamera ?? tr("The printer's own camera")
        rows = cameras.enumerated().map { index, camera in
            var subtitle = camera.url.map { $0.isEmpty ? tr("No URL yet") : redactor.redact($0) } ?? own
            // Said first: a long URL is cut at the row's end.
            if camera.hasMJPEGFallback { subtitle = tr("WebRTC, MJPEG when WebRTC fails") + " · " + subtitle }
            return makeRow(camera.title(at: index), subtitle: subtitle, index: index, count: cameras.count,
                           removable: !(kind.hasOwnCamera && camera.url == nil))
        }
        rows.forEach { gtk_list_box_append(gcast(listBox), $0) }
        gtk_widget_set_visible(listBox, (!rows.isEmpty).gboolean)
        if let selected, rows.indices.contains(selected) {
            gtk_list_box_select_row(gcast(listBox), gcast(rows[selected]))
        }
    }

    /// The rows' titles and subtitles, for tests.
    var rowTexts: [String] {
        rows.map { row in
            let title = String(cString: adw_preferences_row_get_title(gcast(row)))
            return adw_action_row_get_subtitle(gcast(row)).map { title + " — " + String(cString: $0) } ?? title
        }
    }

    private func makeRow(_ title: String, subtitle: String, index: Int, count: Int, removable: Bool) -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_action_row_new()!
        adw_preferences_row_set_use_markup(gcast(row), false.gboolean)
        adw_preferences_row_set_title(gcast(row), title)
        adw_action_row_set_subtitle(gcast(row), subtitle)
        adw_action_row_set_subtitle_lines(gcast(row), 1)
        let buttons: [(String, String, Request, Bool)] = [
            ("go-up-symbolic", tr("Move Up"), .moveUp(index), index > 0),
            ("go-down-symbolic", tr("Move Down"), .moveDown(index), index < count - 1),
            ("user-trash-symbolic", tr("Remove Camera"), .remove(index), removable),
        ]
        for (icon, title, request, enabled) in buttons {
            let button = gtk_button_new_from_icon_name(icon)!
            gtk_widget_add_css_class(button, "flat")
            gtk_widget_set_valign(button, GTK_ALIGN_CENTER)
            gtk_widget_set_tooltip_text(button, title)
            setAccessibleLabel(button, title)
            gtk_widget_set_sensitive(button, enabled.gboolean)
            connectSignal(button, "clicked") { [weak self] in self?.onRequest(request) }
            adw_action_row_add_suffix(gcast(row), button)
        }
        return row
    }
}
