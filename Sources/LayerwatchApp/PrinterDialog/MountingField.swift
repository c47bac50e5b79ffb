import CGtk
import GtkKit
import StreamKit

/// The printer dialog's "Camera mounting": how the camera is turned (upright, a quarter turn either
/// way, upside down) and whether its picture is mirrored either way, as Klipper's and OctoPrint's
/// webcam settings say it; every view then shows the picture upright. An imported camera fills it.
@MainActor
final class MountingField {
    /// The turn's choices, clockwise degrees in its order.
    private static let rotations = [0, 90, 180, 270]
    let field: FormField
    private let turn = adw_combo_row_new()!
    private let mirror = gtk_switch_new()!
    private let upsideDown = gtk_switch_new()!

    init() {
        let titles = [tr("Upright"), tr("Turned 90° clockwise"), tr("Turned 180°"), tr("Turned 90° counterclockwise")]
        setChoices(of: turn, titles)
        adw_preferences_row_set_title(gcast(turn), tr("Camera turned"))
        field = FormField(title: tr("Camera mounting"), control: turn,
                          rows: [turn, Self.switchRow(tr("Mirrored left to right"), mirror),
                                 Self.switchRow(tr("Mirrored top to bottom"), upsideDown)],
                          hint: tr("How the camera is mounted: Layerwatch turns its picture upright everywhere."))
    }

    /// Clockwise degrees: 0, 90, 180 or 270.
    var rotation: Int {
        get { Self.rotations[min(Int(adw_combo_row_get_selected(gcast(turn))), Self.rotations.count - 1)] }
        set { adw_combo_row_set_selected(gcast(turn), guint(Self.rotations.firstIndex(of: (newValue % 360 + 360) % 360 / 90 * 90) ?? 0)) }
    }

    var flipHorizontal: Bool {
        get { Bool(gboolean: gtk_switch_get_active(gcast(mirror))) }
        set { gtk_switch_set_active(gcast(mirror), newValue.gboolean) }
    }

    var flipVertical: Bool {
        get { Bool(gboolean: gtk_switch_get_active(gcast(upsideDown))) }
        set { gtk_switch_set_active(gcast(upsideDown), newValue.gboolean) }
    }

    /// Shows `rotation` and the flips.
    func show(rotation: Int, flipHorizontal: Bool, flipVertical: Bool) {
        self.rotation = rotation
        self.flipHorizontal = flipHorizontal
        self.flipVertical = flipVertical
    }

    /// A row titled `title` that the switch turns on and off (a click anywhere on it toggles it).
    private static func switchRow(_ title: String, _ control: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(gcast(row), title)
        gtk_widget_set_valign(control, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(gcast(row), control)
        adw_action_row_set_activatable_widget(gcast(row), control)
        return row
    }
}
