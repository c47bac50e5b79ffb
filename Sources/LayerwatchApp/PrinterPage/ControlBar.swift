import CGtk
import GtkKit

/// The camera page's buttons, one for each feature placed in the control bar (Feature.all), wired
/// to its action, so a button, its shortcut and its menu item are one feature, then the page's own
/// controls (a Bambu printer's chamber light). A feature that hides while it does not apply (the
/// print controls) shows its button only while it applies, its tooltip saying why while it is
/// locked. A printer watched without a picture has no camera buttons (snapshot, record, stats,
/// fullscreen, pop-out, reconnect): only its print's. The bar only knows how to lie flat below the
/// video or stand up beside it.
@MainActor
final class ControlBar {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The buttons of the features that hide while they do not apply.
    private var hiding: [(feature: Feature, button: UnsafeMutablePointer<GtkWidget>)] = []
    /// The features it has a button for, in order.
    private(set) var featureNames: [String] = []

    /// A bar with a button for each feature placed in it, the camera's only `withCamera`.
    init(withCamera: Bool) {
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
        gtk_widget_add_css_class(widget, "control-bar")
        gtk_widget_set_halign(widget, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(widget, GTK_ALIGN_CENTER)
        for (feature, icon) in Feature.placed(\.controlBarIcon) where withCamera || feature.shortcutGroup != .camera {
            featureNames.append(feature.name)
            let button = Self.button(for: feature, icon: icon)
            gtk_box_append(gcast(widget), button)
            if feature.hiddenWhenDisabled {
                hiding.append((feature, button))
                gtk_widget_set_visible(button, false.gboolean)
            }
        }
    }

    /// Shows the buttons of the features that apply to `printer` now (the print controls), each
    /// with its tooltip or the reason it is locked.
    func refresh(_ printer: PrinterContext) {
        for (feature, button) in hiding {
            gtk_widget_set_visible(button, feature.isShown(for: printer).gboolean)
            gtk_widget_set_tooltip_text(button, feature.lockedReason?(printer) ?? feature.tooltip(for: printer))
            setAccessibleLabel(button, feature.title(for: printer))
        }
    }

    /// The button of the hiding feature named `name` (for tests).
    func button(_ name: String) -> UnsafeMutablePointer<GtkWidget>? {
        hiding.first { $0.feature.name == name }?.button
    }

    /// Adds a control of the page's own after the features' buttons.
    func append(_ control: UnsafeMutablePointer<GtkWidget>) {
        gtk_box_append(gcast(widget), control)
    }

    /// Horizontal under the video, vertical beside it.
    func setOrientation(_ orientation: GtkOrientation) {
        gtk_orientable_set_orientation(gcast(widget), orientation)
    }

    var orientation: GtkOrientation { gtk_orientable_get_orientation(gcast(widget)) }

    /// A flat round button for `feature`: a toggle button for an on/off feature.
    static func button(for feature: Feature, icon: String) -> UnsafeMutablePointer<GtkWidget> {
        let button: UnsafeMutablePointer<GtkWidget>
        if feature.isToggle { button = gtk_toggle_button_new() } else { button = gtk_button_new() }
        gtk_button_set_icon_name(gcast(button), icon)
        gtk_widget_add_css_class(button, "feature-\(feature.name)")  // for the stylesheet (Record turns red)
        gtk_widget_set_tooltip_text(button, feature.tooltip)
        gtk_actionable_set_action_name(gcast(button), feature.actionName)
        gtk_widget_add_css_class(button, "circular")
        gtk_widget_add_css_class(button, "flat")
        setAccessibleLabel(button, feature.title)
        return button
    }
}
