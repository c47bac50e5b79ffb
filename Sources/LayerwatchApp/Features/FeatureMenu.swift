import CGtk
import GtkKit

/// A menu of features acting on one printer at a time (a farm tile's, a mini window's): its items
/// retitled when that printer's words differ ("Cancel Print…" for Klipper, "Stop Print…" for
/// Bambu), so the menu says what its question and toast will.
@MainActor
final class FeatureMenu {
    let model = GObjectRef(adopting: g_menu_new()!)
    private let features: [Feature]
    private var titles: [String]

    init(_ features: [Feature]) {
        self.features = features
        titles = features.map(\.title)
        for feature in features { feature.appendItem(to: model.pointer) }
    }

    /// Whether any of its items shows for `printer` (a menu of hidden items opens as an empty
    /// popover). Only a printer's features may hide in such a menu.
    func showsAnItem(for printer: PrinterContext) -> Bool {
        features.contains { $0.isShown(for: printer) }
    }

    /// Titles the items for `printer` (their own titles without one), rebuilding the menu only
    /// when a title changed.
    func refresh(_ printer: PrinterContext?) {
        let current = features.map { $0.title(for: printer) }
        guard current != titles else { return }
        titles = current
        g_menu_remove_all(model.pointer)
        for feature in features { feature.appendItem(to: model.pointer, for: printer) }
    }
}
