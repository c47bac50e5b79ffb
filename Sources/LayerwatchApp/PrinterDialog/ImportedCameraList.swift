import CGtk
import GtkKit
import StatusKit
import StreamKit

/// The printer dialog's cameras of a Klipper or OctoPrint host or a go2rtc restreamer: "Find
/// Cameras", a spinner while the host is asked (off the main loop), and what it listed, one row each with a check button:
/// name, address (passwords and keys masked), service and mounting. A WebRTC-only camera is listed
/// but cannot be checked; one nothing answered for says so (the dialog leaves it unchecked). What
/// the host sent is shown as plain text, never markup.
@MainActor
final class ImportedCameraList {
    /// The button, the spinner and the list.
    let widget = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
    let findButton = gtk_button_new_with_label(tr("Find Cameras"))!
    /// The list box, hidden until a host has answered.
    let listBox = gtk_list_box_new()!
    /// The user checked or unchecked a camera, or a new list came.
    var onToggle: @MainActor () -> Void = {}
    /// The cameras shown, in the host's order.
    private(set) var cameras: [ImportedCamera] = []
    private var rows: [UnsafeMutablePointer<GtkWidget>] = []
    private var checks: [UnsafeMutablePointer<GtkWidget>] = []
    private let spinner = gtk_spinner_new()!
    private let search = CameraSearch()

    init() {
        let findRow = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_box_append(gcast(findRow), findButton)
        gtk_box_append(gcast(findRow), spinner)
        gtk_box_append(gcast(widget), findRow)
        gtk_box_append(gcast(widget), listBox)
        gtk_widget_add_css_class(listBox, "boxed-list")
        gtk_list_box_set_selection_mode(gcast(listBox), GTK_SELECTION_NONE)
        gtk_widget_set_visible(listBox, false.gboolean)
        // A search still running when the dialog closes ends with it.
        connectSignal(widget, "destroy") { [search] in search.cancel() }
    }

    /// The cameras the user checked.
    var chosen: [ImportedCamera] {
        zip(cameras, checks).filter { Bool(gboolean: gtk_check_button_get_active(gcast($0.1))) }.map(\.0)
    }

    /// True while a host is being asked.
    var isSearching: Bool { search.isRunning }

    /// Asks `target` for its cameras and lists them, checking the playable ones `checked` picks;
    /// on failure the list stays as it was and `failed` is told why.
    func find(_ target: CameraSearch.Target, checked: @escaping @MainActor (ImportedCamera) -> Bool,
              failed: @escaping @MainActor (StatusFailure) -> Void) {
        gtk_widget_set_sensitive(findButton, false.gboolean)
        gtk_spinner_start(gcast(spinner))
        search.start(target) { [weak self] result in
            guard let self else { return }
            searchEnded()
            switch result {
            case .success(let found): show(found, from: target, checked: checked)
            case .failure(let failure): failed(failure)
            }
        }
    }

    /// Drops the search in flight, if any: its answer is never shown.
    func cancel() {
        guard search.isRunning else { return }
        search.cancel()
        searchEnded()
    }

    private func searchEnded() {
        gtk_widget_set_sensitive(findButton, true.gboolean)
        gtk_spinner_stop(gcast(spinner))
    }

    /// Replaces the list with the `cameras` `target` sent, checking the playable ones `checked`
    /// picks; its secrets are masked wherever they appear in an address.
    private func show(_ cameras: [ImportedCamera], from target: CameraSearch.Target, checked: (ImportedCamera) -> Bool) {
        for row in rows { gtk_list_box_remove(gcast(listBox), row) }
        self.cameras = cameras
        checks = cameras.map { _ in gtk_check_button_new()! }
        rows = zip(cameras, checks).map { camera, check in
            makeRow(camera, check: check, redactor: Redactor(secrets: target.secrets), checked: checked(camera))
        }
        if cameras.isEmpty { rows = [Self.noCamerasRow(target)] }
        for row in rows { gtk_list_box_append(gcast(listBox), row) }
        gtk_widget_set_visible(listBox, true.gboolean)
        onToggle()
    }

    /// The row and check button of the camera at `index`.
    func row(at index: Int) -> (row: UnsafeMutablePointer<GtkWidget>, check: UnsafeMutablePointer<GtkWidget>) {
        (rows[index], checks[index])
    }

    private func makeRow(_ camera: ImportedCamera, check: UnsafeMutablePointer<GtkWidget>, redactor: Redactor,
                         checked: Bool) -> UnsafeMutablePointer<GtkWidget> {
        let otherHost = camera.otherHost.map { String(format: tr("on %@, not the printer's host"), $0) }
        let fallback = camera.mjpegFallback.map { _ in tr("MJPEG when WebRTC fails") }
        let details = [camera.service, fallback, Self.mounting(camera), otherHost].compactMap { $0 }.joined(separator: " · ")
        var address = [camera.url.map(redactor.redact), camera.refusal].compactMap { $0 }.joined(separator: " — ")
        if let reason = camera.unreachable, let url = camera.url {
            address = String(format: tr("Not reachable at %@ — %@"), redactor.redact(url), reason)
        }
        let row = Self.row(title: camera.name, subtitle: address + "\n" + details)
        gtk_widget_set_valign(check, GTK_ALIGN_CENTER)
        setAccessibleLabel(check, camera.name)
        adw_action_row_add_prefix(gcast(row), check)
        adw_action_row_set_activatable_widget(gcast(row), check)
        gtk_check_button_set_active(gcast(check), (checked && camera.refusal == nil).gboolean)
        gtk_widget_set_sensitive(row, (camera.refusal == nil).gboolean)
        connectSignal(check, "toggled") { [weak self] in self?.onToggle() }
        return row
    }

    /// What an empty list says, and where to add cameras.
    private static func noCamerasRow(_ target: CameraSearch.Target) -> UnsafeMutablePointer<GtkWidget> {
        switch target {
        case .statusAPI:
            return row(title: tr("This printer lists no cameras"),
                       subtitle: tr("Add it as it is to watch it without a picture, or add the camera in Mainsail, Fluidd or OctoPrint's settings, then find again."))
        case .go2rtc:
            return row(title: tr("go2rtc lists no streams"),
                       subtitle: tr("Add the cameras under streams: in go2rtc.yaml, then find again."))
        }
    }

    /// "rotated 90°, flipped horizontally", or nil for a camera mounted upright.
    private static func mounting(_ camera: ImportedCamera) -> String? {
        var parts: [String] = []
        if camera.rotation != 0 { parts.append(String(format: tr("rotated %ld°"), camera.rotation)) }
        if camera.flipHorizontal { parts.append(tr("flipped horizontally")) }
        if camera.flipVertical { parts.append(tr("flipped vertically")) }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }

    /// An action row whose title and subtitle are plain text; the subtitle ellipsized after three
    /// lines (an address said unreachable takes two).
    private static func row(title: String, subtitle: String) -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_action_row_new()!
        adw_preferences_row_set_use_markup(gcast(row), false.gboolean)
        adw_preferences_row_set_title(gcast(row), title)
        adw_action_row_set_title_lines(gcast(row), 1)
        adw_action_row_set_subtitle(gcast(row), subtitle)
        adw_action_row_set_subtitle_lines(gcast(row), 3)
        return row
    }
}
