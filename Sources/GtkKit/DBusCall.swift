import CGtk
import Glibc

/// A method call on the session bus whose answer matters only when it fails (a file manager's
/// `ShowItems`, a portal's `OpenDirectory`): sent without waiting, its error, if any, handed to
/// `failed` on the main loop.
public enum DBusCall {
    /// Calls `interface.method` of `name` at `path` with `parameters` (a tuple GVariant, floating or
    /// not, consumed) and the descriptors in `fileDescriptors` (closed once sent; none when empty).
    /// Without a session bus `failed` is called at once.
    @MainActor
    public static func send(to name: String, path: String, interface: String, method: String, parameters: OpaquePointer,
                            fileDescriptors: [Int32] = [], failed: @escaping @MainActor (String) -> Void) {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            g_variant_unref(g_variant_ref_sink(parameters))
            fileDescriptors.forEach { close($0) }
            failed(error.map { String(cString: $0.pointee.message) } ?? "no session bus")
            g_clear_error(&error)
            return
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        var descriptors = fileDescriptors
        let list = descriptors.isEmpty ? nil : g_unix_fd_list_new_from_array(&descriptors, Int32(descriptors.count))
        defer { list.map { g_object_unref(UnsafeMutableRawPointer($0)) } }
        let box = ClosureBox(failed).retainedPointer()
        g_dbus_connection_call_with_unix_fd_list(bus, name, path, interface, method, parameters, nil, G_DBUS_CALL_FLAGS_NONE, 5000,
                                                 list, nil, { source, result, data in
            var error: UnsafeMutablePointer<GError>?
            let reply = g_dbus_connection_call_with_unix_fd_list_finish(OpaquePointer(source), nil, result, &error)
            let failed = ClosureBox<@MainActor (String) -> Void>.value(at: data)
            releaseClosureBox(data)
            if let reply { g_variant_unref(reply) }
            guard let error else { return }
            let message = String(cString: error.pointee.message)
            g_error_free(error)
            MainActor.assumeIsolated { failed(message) }
        }, box)
    }
}
