import CGtk

/// Adds a plain action `name` to an action map (a window: "win.NAME", the application: "app.NAME")
/// whose activation runs `handler`. Buttons, menus and accelerators all reach features this way.
@MainActor @discardableResult
public func addAction(_ map: some GObjectPointer, _ name: String,
                      _ handler: @escaping @MainActor () -> Void) -> OpaquePointer {
    let action = g_simple_action_new(name, nil)!
    connectSignal(action, "activate") { (_: UnsafeMutableRawPointer?) in handler() }
    g_action_map_add_action(gcast(map), gcast(action))
    g_object_unref(action.rawGObject)
    return action
}

/// Adds an on/off action (shown by a GtkToggleButton with its action name): each activation flips
/// the state and hands the new value to `handler`.
@MainActor @discardableResult
public func addToggleAction(_ map: some GObjectPointer, _ name: String, initial: Bool,
                            _ handler: @escaping @MainActor (Bool) -> Void) -> OpaquePointer {
    let action = g_simple_action_new_stateful(name, nil, g_variant_new_boolean(initial.gboolean))!
    connectSignal(action, "activate") { (_: UnsafeMutableRawPointer?) in
        let state = g_action_get_state(gcast(action))
        let newValue = !Bool(gboolean: g_variant_get_boolean(state))
        g_variant_unref(state)
        g_simple_action_set_state(action, g_variant_new_boolean(newValue.gboolean))
        handler(newValue)
    }
    g_action_map_add_action(gcast(map), gcast(action))
    g_object_unref(action.rawGObject)
    return action
}
