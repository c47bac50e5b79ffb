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

/// Adds an action `name` taking a string (`app.NAME::text` in a menu, or a notification's target),
/// whose activation hands the string to `handler`.
@MainActor @discardableResult
public func addStringAction(_ map: some GObjectPointer, _ name: String,
                            _ handler: @escaping @MainActor (String) -> Void) -> OpaquePointer {
    addStringParameterAction(map, name, state: nil, handler)
}

/// Adds an action `name` taking a 64-bit integer (GVariant type "x": a time in seconds since
/// 1970, as another part of the window activates it), whose activation hands the number to `handler`.
@MainActor @discardableResult
public func addInt64Action(_ map: some GObjectPointer, _ name: String,
                           _ handler: @escaping @MainActor (Int64) -> Void) -> OpaquePointer {
    let type = g_variant_type_new("x")
    defer { g_variant_type_free(type) }
    let action = g_simple_action_new(name, type)!
    connectSignal(action, "activate") { (parameter: UnsafeMutableRawPointer?) in
        guard let parameter else { return }
        handler(Int64(g_variant_get_int64(OpaquePointer(parameter))))
    }
    g_action_map_add_action(gcast(map), gcast(action))
    g_object_unref(action.rawGObject)
    return action
}

/// Sets an on/off action's state (see `addToggleAction`) without activating it: for a toggle that
/// shows a value kept elsewhere, such as the selected printer's setting.
@MainActor
public func setToggleState(_ action: OpaquePointer, _ on: Bool) {
    let state = g_action_get_state(gcast(action))
    defer { g_variant_unref(state) }
    guard Bool(gboolean: g_variant_get_boolean(state)) != on else { return }
    g_simple_action_set_state(action, g_variant_new_boolean(on.gboolean))
}

/// Adds an action `name` choosing one of several strings (`win.NAME::value` items in a menu show
/// as radio items) whose state is what something else reports, never the last click: activating
/// it hands the chosen value to `handler` and leaves the state for `setChoiceState`. The state
/// starts empty (no item marked).
@MainActor @discardableResult
public func addChoiceAction(_ map: some GObjectPointer, _ name: String,
                            _ handler: @escaping @MainActor (String) -> Void) -> OpaquePointer {
    // A handler on `activate` keeps GLib from changing the state itself.
    addStringParameterAction(map, name, state: g_variant_new_string(""), handler)
}

/// An action taking a string, stateful when `state` is given, whose activation hands the string
/// to `handler`.
@MainActor
private func addStringParameterAction(_ map: some GObjectPointer, _ name: String, state: OpaquePointer?,
                                      _ handler: @escaping @MainActor (String) -> Void) -> OpaquePointer {
    let type = g_variant_type_new("s")
    defer { g_variant_type_free(type) }
    let action = (state.map { g_simple_action_new_stateful(name, type, $0) } ?? g_simple_action_new(name, type))!
    connectSignal(action, "activate") { (parameter: UnsafeMutableRawPointer?) in
        guard let parameter else { return }
        handler(String(cString: g_variant_get_string(OpaquePointer(parameter), nil)))
    }
    g_action_map_add_action(gcast(map), gcast(action))
    g_object_unref(action.rawGObject)
    return action
}

/// Sets a choice action's state (see `addChoiceAction`): the value now reported ("" for none).
@MainActor
public func setChoiceState(_ action: OpaquePointer, _ value: String) {
    let state = g_action_get_state(gcast(action))
    defer { g_variant_unref(state) }
    guard String(cString: g_variant_get_string(state, nil)) != value else { return }
    g_simple_action_set_state(action, g_variant_new_string(value))
}
