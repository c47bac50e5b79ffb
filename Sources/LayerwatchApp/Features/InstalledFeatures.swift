import CGtk
import GtkKit

/// The features installed on one action map — the main window's, a printer's group
/// (`PrinterActions`) — kept in step with what they act on: each action enabled exactly where its
/// feature applies, toggles and choices showing their values, and a feature that can be locked
/// (`Feature.lockedReason`) taken out of the map while it does not show, so its menu items (hidden
/// when the action is missing) disappear then and stay greyed while it is locked.
@MainActor
final class InstalledFeatures {
    private let map: OpaquePointer
    /// The actions, each held here too, since a locked feature's leaves the map at times.
    private let installed: [(feature: Feature, action: GObjectRef<OpaquePointer>)]

    /// Installs `features` on `map`, acting on `context`.
    convenience init(_ features: [Feature], on map: some GObjectPointer, for context: FeatureContext) {
        self.init(features, on: map) { $0.install(on: map, for: context) }
    }

    /// Installs the printer's `features` on `map`, acting on `printer`.
    convenience init(_ features: [Feature], on map: some GObjectPointer, acting printer: PrinterContext) {
        self.init(features, on: map) { $0.install(on: map, acting: printer) }
    }

    private init(_ features: [Feature], on map: some GObjectPointer, install: (Feature) -> OpaquePointer?) {
        self.map = OpaquePointer(map.rawGObject)
        installed = features.compactMap { feature in install(feature).map { (feature, GObjectRef(retaining: $0)) } }
    }

    /// Follows the application's state (the window's actions).
    func refresh(_ context: FeatureContext) {
        for (feature, action) in installed {
            g_simple_action_set_enabled(action.pointer, feature.isEnabled(context).gboolean)
            if let state = feature.state { setToggleState(action.pointer, state(context)) }
        }
    }

    /// Follows the printer's state (a printer's actions).
    func refresh(_ printer: PrinterContext) {
        for (feature, action) in installed {
            g_simple_action_set_enabled(action.pointer, feature.applies(printer).gboolean)
            if let choice = feature.choiceState { setChoiceState(action.pointer, choice(printer)) }
            guard feature.lockedReason != nil else { continue }
            let present = g_action_map_lookup_action(gcast(map), feature.name) != nil
            let shown = feature.isShown(for: printer)
            if shown && !present {
                g_action_map_add_action(gcast(map), gcast(action.pointer))
            } else if !shown && present {
                g_action_map_remove_action(gcast(map), feature.name)
            }
        }
    }

    /// Whether the action of the feature named `name` can be used now (false when it is not here).
    func isEnabled(_ name: String) -> Bool {
        installed.first { $0.feature.name == name }.map { Bool(gboolean: g_action_get_enabled($0.action.pointer)) } ?? false
    }
}
