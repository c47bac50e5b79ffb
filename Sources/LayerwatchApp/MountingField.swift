import CGtk
import GtkKit
import StreamKit

/// The printer dialog's "Camera mounting": how the camera is turned (upright, a quarter turn either
/// way, upside down) and whether its picture is mirrored either way, as Klipper's and OctoPrint's
/// webcam settings say it; every view then shows the picture upright. An imported camera fills it.
@MainActor
final class MountingField {
    /// The drop-down's turns, clockwise degrees in its order.
    private static let rotations = [0, 90, 180, 270]
    let field: FormField
    private let turn: UnsafeMutablePointer<GtkWidget>
    private let mirror = gtk_check_button_new_with_label(tr("Mirrored left to right"))!
    private let upsideDown = gtk_check_button_new_with_label(tr("Mirrored top to bottom"))!

    init() {
        let titles = [tr("Upright"), tr("Turned 90° clockwise"), tr("Turned 180°"), tr("Turned 90° counterclockwise")]
        turn = makeDropDown(titles)
        let control = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        gtk_widget_set_halign(turn, GTK_ALIGN_START)
        for child in [turn, mirror, upsideDown] { gtk_box_append(gcast(control), child) }
        field = FormField(title: tr("Camera mounting"), control: control,
                          hint: tr("How the camera is mounted: Layerwatch turns its picture upright everywhere."))
        setAccessibleLabel(turn, tr("Camera turned"))
    }

    /// Clockwise degrees: 0, 90, 180 or 270.
    var rotation: Int {
        get { Self.rotations[min(Int(gtk_drop_down_get_selected(gcast(turn))), Self.rotations.count - 1)] }
        set { gtk_drop_down_set_selected(gcast(turn), guint(Self.rotations.firstIndex(of: (newValue % 360 + 360) % 360 / 90 * 90) ?? 0)) }
    }

    var flipHorizontal: Bool {
        get { Bool(gboolean: gtk_check_button_get_active(gcast(mirror))) }
        set { gtk_check_button_set_active(gcast(mirror), newValue.gboolean) }
    }

    var flipVertical: Bool {
        get { Bool(gboolean: gtk_check_button_get_active(gcast(upsideDown))) }
        set { gtk_check_button_set_active(gcast(upsideDown), newValue.gboolean) }
    }

    /// Shows `rotation` and the flips.
    func show(rotation: Int, flipHorizontal: Bool, flipVertical: Bool) {
        self.rotation = rotation
        self.flipHorizontal = flipHorizontal
        self.flipVertical = flipVertical
    }
}
