import CGtk

/// Calls a closure on the main loop when a file changes on disk — written, replaced by a rename
/// (as an atomic save does), created or removed — once a burst of changes has been quiet for a
/// moment, so an editor's save is one call, not one per write. It exists so the app follows a file
/// the user edits by hand while it runs (GLib's GFileMonitor: inotify on Linux, the file's folder
/// watched, so a file that does not exist yet is watched too).
@MainActor
public final class FileWatch {
    private let monitor: GObjectRef<UnsafeMutablePointer<GFileMonitor>>
    /// Fires once the changes have been quiet for `quiet`; each change starts it again.
    private var settle: RepeatingTimer?

    /// Watches `path`; throws when GLib cannot (no inotify watch left, a path it cannot watch).
    public init(path: String, quiet milliseconds: UInt32 = 250, _ changed: @escaping @MainActor () -> Void) throws(Failure) {
        let file = g_file_new_for_path(path)!
        defer { g_object_unref(file.rawGObject) }
        var error: UnsafeMutablePointer<GError>?
        guard let monitor = g_file_monitor_file(file, G_FILE_MONITOR_NONE, nil, &error) else {
            defer { if let error { g_error_free(error) } }
            throw Failure(description: error.map { String(cString: $0.pointee.message) } ?? path)
        }
        self.monitor = GObjectRef(adopting: monitor)
        connectFileMonitorSignal(monitor) { [weak self] _ in
            guard let self else { return }
            settle = RepeatingTimer(milliseconds: milliseconds) { [weak self] in
                self?.settle = nil
                changed()
            }
        }
    }

    /// Why a file cannot be watched, in GLib's words.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    isolated deinit {
        g_file_monitor_cancel(monitor.pointer)
    }
}
