import Foundation
import StreamKit

/// A printer tab's title: the printer's name, and while a print runs or is paused its percentage
/// ("Voron · 42 %"). libadwaita fades a title that does not fit at its end, which would take the
/// figure first, so a name longer than `nameBudget` characters is shortened here with "…" and the
/// figure always stays whole; the full title goes in the tab's tooltip.
struct TabTitle: Equatable {
    /// The longest name kept whole beside a figure: what a tab among a few shows at the default size.
    static let nameBudget = 18

    /// What the tab shows.
    let shown: String
    /// The name and figure unshortened (the tooltip's first line).
    let full: String

    init(name: String, percent: String?) {
        guard let percent else {
            (shown, full) = (name, name)
            return
        }
        full = String(format: tr("%@ · %@"), name, percent)
        shown = String(format: tr("%@ · %@"), Self.shortened(name), percent)
    }

    /// `name` cut to `nameBudget` characters (an ellipsis the last), spaces before the cut dropped.
    static func shortened(_ name: String) -> String {
        guard name.count > nameBudget else { return name }
        let kept = name.prefix(nameBudget - 1).trimmingCharacters(in: .whitespaces)
        return kept + "…"
    }
}
