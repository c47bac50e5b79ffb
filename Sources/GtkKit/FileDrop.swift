import CGtk
import Foundation

/// A GtkDropTarget for files (GDK_TYPE_FILE_LIST: Files' and a slicer's drags, text/uri-list
/// converted by GDK) on `widget`, copying. `onDrop` is handed the dropped local files (others left
/// out) and returns whether it took them (false refuses the drop); `onHover` is told true when a
/// drag of files enters the widget and false when it leaves or drops. Returns the target.
@MainActor @discardableResult
public func addFileDropTarget(to widget: UnsafeMutablePointer<GtkWidget>,
                              onHover: @escaping @MainActor (Bool) -> Void,
                              onDrop: @escaping @MainActor ([URL]) -> Bool) -> OpaquePointer {
    let target = gtk_drop_target_new(gdk_file_list_get_type(), GDK_ACTION_COPY)!
    // `current-drop` is set while a drag is over the widget, unset when it leaves or drops.
    connectNotify(target, "current-drop") {
        onHover(gtk_drop_target_get_current_drop(target) != nil)
    }
    connectDropSignal(target) { value in onDrop(droppedFiles(value)) }
    gtk_widget_add_controller(widget, gcast(target))
    return target
}

/// The local files of a dropped GdkFileList value.
@MainActor
private func droppedFiles(_ value: UnsafePointer<GValue>?) -> [URL] {
    guard let value, g_type_check_value_holds(value, gdk_file_list_get_type()) != 0,
          let list = g_value_get_boxed(value) else { return [] }
    let files = gdk_file_list_get_files(OpaquePointer(list))
    defer { g_slist_free(files) }
    var urls: [URL] = []
    var node = files
    while let element = node {
        if let path = String(takingGLibString: g_file_get_path(OpaquePointer(element.pointee.data))) {
            urls.append(URL(fileURLWithPath: path))
        }
        node = element.pointee.next
    }
    return urls
}
