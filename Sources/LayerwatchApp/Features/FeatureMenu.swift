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

    /// Whether any of its items shows for what they act on in `context` (a menu of hidden items
    /// opens as an empty popover).
    func showsAnItem(in context: FeatureContext) -> Bool {
        features.contains { $0.isShown(in: context) }
    }

    /// Titles the items for what they act on in `context`, rebuilding the menu only when a title changed.
    func refresh(_ context: FeatureContext) {
        let current = features.map { $0.title(in: context) }
        guard current != titles else { return }
        titles = current
        g_menu_remove_all(model.pointer)
        for feature in features { feature.appendItem(to: model.pointer, in: context) }
    }
}
