import CGtk
import CameraKit
import GtkKit

/// The `camera` actions of one picture (the features of `Feature.Scope.camera`: snapshot, record,
/// stats, zoom, reconnect), in a group inserted on the widget that holds the picture and its
/// controls: a button or menu inside finds them there, and a mini window's keys act on its own
/// picture. GTK activates the application's accelerators on the window, so the main window inserts
/// its selected tab's group as its own (`MainWindow.followSelectedPicture`); while the farm shows, a
/// second group of the selected tab's picture with only what a farm tile's menu offers (no zoom nor
/// stats: the tiles show neither). A tab's picture has the features that act on its page too
/// (`Feature.Handler.page`, `.pageToggle`: snapshot, record, stats), a mini window's only those
/// that act on the picture itself (zoom, reconnect): its compact picture has no stats readout.
@MainActor
enum CameraActions {
    static let features = Feature.all.filter { $0.scope == .camera }
    /// The picture's features a farm tile's menu offers.
    static let tileFeatures = features.filter { $0.placements.contains(.tileMenu) }

    /// Gives `holder` (a tab's page, a mini window) the actions of `surface`, held by `page` if it
    /// is a tab's, and returns them.
    @discardableResult
    static func install(for surface: CameraSurface, of page: PrinterPage? = nil,
                        on holder: UnsafeMutablePointer<GtkWidget>) -> GObjectRef<UnsafeMutablePointer<GSimpleActionGroup>> {
        let group = self.group(of: features, for: surface, of: page)
        gtk_widget_insert_action_group(holder, "camera", gcast(group.pointer))
        return group
    }

    /// The actions of `features` acting on `surface` (and `page`), inserted nowhere yet.
    static func group(of features: [Feature], for surface: CameraSurface,
                      of page: PrinterPage? = nil) -> GObjectRef<UnsafeMutablePointer<GSimpleActionGroup>> {
        let group = GObjectRef(adopting: g_simple_action_group_new()!)
        for feature in features { feature.install(on: group.pointer, acting: surface, of: page) }
        return group
    }

    /// Enables the actions of `group` where they apply to `page` now, and shows its toggles' values.
    static func refresh(_ group: GObjectRef<UnsafeMutablePointer<GSimpleActionGroup>>, for page: PrinterPage) {
        for feature in features {
            guard let action = g_action_map_lookup_action(gcast(group.pointer), feature.name) else { continue }
            if let isEnabled = feature.isEnabledOnPage { g_simple_action_set_enabled(gcast(action), isEnabled(page).gboolean) }
            if let state = feature.pageState { setToggleState(gcast(action), state(page)) }
        }
    }
}
