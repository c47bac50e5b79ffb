import CGtk
import CLayerwatch

/// Sets `widget`'s accessible label, what a screen reader says for a control without visible text
/// (an icon-only button, a tile's picture).
@MainActor
public func setAccessibleLabel(_ widget: some GObjectPointer, _ label: String) {
    lw_accessible_set_label(gcast(widget), label)
}

/// Makes `label` the widget that labels `widget` for a screen reader (a form field by its title).
@MainActor
public func setAccessibleLabel(_ widget: some GObjectPointer, labelledBy label: some GObjectPointer) {
    lw_accessible_set_labelled_by(gcast(widget), gcast(label))
}
