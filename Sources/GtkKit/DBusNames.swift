import CGtk

/// Small synchronous questions to the session bus, asked before GTK starts or off the main loop:
/// whether a well-known name is owned (a launch can tell whether another instance of the app runs
/// without registering), and a service's list of strings (a notification server's capabilities).
/// The bus connection is GLib's shared one, which GApplication then reuses.
public enum DBusNames {
    /// Whether `name` has an owner on the session bus; false without a session bus or an answer
    /// within `timeout` milliseconds.
    public static func hasOwner(_ name: String, timeout: Int32 = 500) -> Bool {
        var argument = g_variant_new_string(name)
        return call("org.freedesktop.DBus", "/org/freedesktop/DBus", "NameHasOwner", g_variant_new_tuple(&argument, 1),
                    timeout: timeout) { Bool(gboolean: g_variant_get_boolean($0)) } ?? false
    }

    /// The strings a `(as)`-returning method without arguments answers (a notification server's
    /// `GetCapabilities`); nil without a session bus or an answer within `timeout` milliseconds.
    public static func strings(from name: String, path: String, method: String, timeout: Int32 = 500) -> [String]? {
        call(name, path, method, nil, timeout: timeout) { list in
            (0..<g_variant_n_children(list)).map { index in
                let item = g_variant_get_child_value(list, index)
                defer { g_variant_unref(item) }
                return String(cString: g_variant_get_string(item, nil))
            }
        }
    }

    /// Calls `method` of the interface named like `name` at `path` on the session bus, and reads
    /// the reply's first value with `read`.
    private static func call<Value>(_ name: String, _ path: String, _ method: String, _ parameters: OpaquePointer?,
                                    timeout: Int32, read: (OpaquePointer) -> Value) -> Value? {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else {
            if let parameters { g_variant_unref(g_variant_ref_sink(parameters)) }
            return nil
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        guard let reply = g_dbus_connection_call_sync(bus, name, path, name, method, parameters,
                                                      nil, G_DBUS_CALL_FLAGS_NONE, timeout, nil, nil) else { return nil }
        defer { g_variant_unref(reply) }
        let value = g_variant_get_child_value(reply, 0)!
        defer { g_variant_unref(value) }
        return read(value)
    }
}
