import CGtk

/// An on/off action whose state is what something else reports (a printer's chamber light), never
/// what the last click asked for: activating it hands `onRequest` the opposite of the reported
/// state and leaves the state alone until `report` brings the answer. A GtkToggleButton given its action
/// name shows the reported state, and is insensitive while the action is disabled.
@MainActor
public final class ReportedToggleAction {
    private let ref: GObjectRef<OpaquePointer>

    /// The GSimpleAction `name` (disabled, off), for an action map or group.
    public var action: OpaquePointer { ref.pointer }
    /// Asks the other side for a state; the answer comes back through `report`.
    public var onRequest: @MainActor (Bool) -> Void = { _ in }

    public init(name: String) {
        let action = g_simple_action_new_stateful(name, nil, g_variant_new_boolean(false.gboolean))!
        ref = GObjectRef(adopting: action)
        g_simple_action_set_enabled(action, false.gboolean)
        // A handler on `activate` keeps GLib from flipping the boolean state itself.
        connectSignal(action, "activate") { [weak self] (_: UnsafeMutableRawPointer?) in
            self?.onRequest(!Self.state(of: action))
        }
    }

    /// The state as last reported.
    public var state: Bool { Self.state(of: action) }

    /// Whether it can be activated (its buttons are sensitive).
    public var isEnabled: Bool {
        get { Bool(gboolean: g_action_get_enabled(action)) }
        set { g_simple_action_set_enabled(action, newValue.gboolean) }
    }

    /// The state as the other side now reports it.
    public func report(_ on: Bool) {
        guard on != state else { return }
        g_simple_action_set_state(action, g_variant_new_boolean(on.gboolean))
    }

    private static func state(of action: OpaquePointer) -> Bool {
        let state = g_action_get_state(gcast(action))
        defer { g_variant_unref(state) }
        return Bool(gboolean: g_variant_get_boolean(state))
    }
}
