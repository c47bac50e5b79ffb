import CGtk
import CLayerwatch

/// Sets `widget`'s accessible label, what a screen reader says for a control without visible text
/// (an icon-only button, a tile's picture).
@MainActor
public func setAccessibleLabel(_ widget: some GObjectPointer, _ label: String) {
    lw_accessible_set_label(gcast(widget), label)
}

/// Makes `first` and `second` what describes `widget` to a screen reader, after its label (a form
/// field by its hint and its error).
@MainActor
public func setAccessibleDescription(_ widget: some GObjectPointer, describedBy first: some GObjectPointer,
                                     and second: some GObjectPointer) {
    lw_accessible_set_described_by(gcast(widget), gcast(first), gcast(second))
}
