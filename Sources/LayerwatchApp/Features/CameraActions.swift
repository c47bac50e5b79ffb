import CGtk
import CameraKit
import GtkKit

/// The `camera` actions of one picture (the features of `Feature.Scope.camera`: zoom, reconnect),
/// in a group inserted on the widget that holds the picture and its controls: a button or menu
/// inside finds them there, and a mini window's keys act on its own picture. GTK activates the
/// application's accelerators on the window, so the main window inserts its selected tab's group as
/// its own (`MainWindow.followSelectedPicture`); while the farm shows, a second group of the
/// selected tab's picture with only what a farm tile's menu offers (no zoom: the tiles do not zoom).
@MainActor
enum CameraActions {
    static let features = Feature.all.filter { $0.scope == .camera }
    /// The picture's features a farm tile's menu offers.
    static let tileFeatures = features.filter { $0.placements.contains(.tileMenu) }

    /// Gives `holder` (a tab's page, a mini window) the actions of `surface`, and returns them.
    @discardableResult
    static func install(for surface: CameraSurface, on holder: UnsafeMutablePointer<GtkWidget>) -> GObjectRef<UnsafeMutablePointer<GSimpleActionGroup>> {
        let group = self.group(of: features, for: surface)
        gtk_widget_insert_action_group(holder, "camera", gcast(group.pointer))
        return group
    }

    /// The actions of `features` acting on `surface`, inserted nowhere yet.
    static func group(of features: [Feature], for surface: CameraSurface) -> GObjectRef<UnsafeMutablePointer<GSimpleActionGroup>> {
        let group = GObjectRef(adopting: g_simple_action_group_new()!)
        for feature in features { feature.install(on: group.pointer, acting: surface) }
        return group
    }
}
