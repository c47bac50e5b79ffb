import CGtk

/// Asks the session bus whether a well-known name is owned, before GTK starts: a launch can tell
/// whether another instance of the app runs (and will get its command line) without registering.
/// The bus connection is GLib's shared one, which GApplication then reuses.
public enum DBusNames {
    /// Whether `name` has an owner on the session bus; false without a session bus or an answer
    /// within `timeout` milliseconds.
    public static func hasOwner(_ name: String, timeout: Int32 = 500) -> Bool {
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        var argument = g_variant_new_string(name)
        let parameters = g_variant_new_tuple(&argument, 1)
        guard let reply = g_dbus_connection_call_sync(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                      "org.freedesktop.DBus", "NameHasOwner", parameters,
                                                      nil, G_DBUS_CALL_FLAGS_NONE, timeout, nil, nil) else { return false }
        defer { g_variant_unref(reply) }
        let owned = g_variant_get_child_value(reply, 0)
        defer { g_variant_unref(owned) }
        return Bool(gboolean: g_variant_get_boolean(owned))
    }
}
