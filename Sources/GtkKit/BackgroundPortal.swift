import CGtk
import Foundation

/// The desktop portal's Background interface (`org.freedesktop.portal.Background.RequestBackground`):
/// how a sandboxed app asks to go on running without a window and to be started at login, since it
/// can neither hold itself open unseen nor write the user's autostart folder. The answer comes as
/// the `Response` signal of a request object whose path the call's `handle_token` decides, so the
/// signal is subscribed to before the call goes. Not libportal's `xdp_portal_request_background`
/// (0.6 on Debian 12): it sends the same request but answers one boolean, the `autostart` result
/// when autostart is asked and `background` otherwise, where Layerwatch needs both, and it always
/// calls `org.freedesktop.portal.Desktop`, where the tests name their fake portal themselves.
@MainActor
public enum BackgroundPortal {
    /// What the portal answered: whether the app may run in the background and whether it starts at
    /// login; nil fields when it refused or could not be reached (with why in `failure`).
    public struct Answer: Sendable, Equatable {
        public var background: Bool
        public var autostart: Bool
        public var failure: String?

        public init(background: Bool, autostart: Bool, failure: String?) {
            self.background = background
            self.autostart = autostart
            self.failure = failure
        }
    }

    /// Asks the portal (`destination` on the session bus; tests pass a fake's name) to let the app
    /// run in the background with `reason` shown to the user, starting it at login with
    /// `commandLine` when `autostart` is set (and no longer when it is not). `completion` gets the
    /// answer on the main loop, once.
    public static func request(reason: String, autostart: Bool, commandLine: [String],
                               destination: String = "org.freedesktop.portal.Desktop",
                               completion: @escaping @MainActor (Answer) -> Void) {
        var error: UnsafeMutablePointer<GError>?
        guard let bus = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            completion(Answer(background: false, autostart: false, failure: error.map { String(cString: $0.pointee.message) } ?? "no session bus"))
            g_clear_error(&error)
            return
        }
        defer { g_object_unref(UnsafeMutableRawPointer(bus)) }
        let token = "layerwatch\(UInt32.random(in: 0...UInt32.max))"
        let sender = String(cString: g_dbus_connection_get_unique_name(bus)).dropFirst()
            .replacingOccurrences(of: ".", with: "_")
        let path = "/org/freedesktop/portal/desktop/request/\(sender)/\(token)"

        let waiting = Waiting(bus: bus, completion: completion)
        waiting.subscription = g_dbus_connection_signal_subscribe(
            bus, nil, "org.freedesktop.portal.Request", "Response", path, nil, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, parameters, data in
                guard let parameters, let data else { return }
                let answer = BackgroundPortal.answer(of: parameters)
                let waiting = Unmanaged<Waiting>.fromOpaque(data).takeUnretainedValue()
                MainActor.assumeIsolated { waiting.finish(answer) }
            }, Unmanaged.passRetained(waiting).toOpaque(), { data in Unmanaged<Waiting>.fromOpaque(data!).release() })

        let options = [entry("handle_token", g_variant_new_string(token)), entry("reason", g_variant_new_string(reason)),
                       entry("autostart", g_variant_new_boolean(autostart.gboolean)),
                       entry("commandline", withCStringArray(commandLine) { g_variant_new_strv($0, Int(commandLine.count)) }),
                       entry("dbus-activatable", g_variant_new_boolean(false.gboolean))]
        let dictionary = dictionaryType()
        defer { g_variant_type_free(dictionary) }
        var entries = options.map(Optional.some)
        var arguments: [OpaquePointer?] = [g_variant_new_string(""), g_variant_new_array(dictionary, &entries, gsize(entries.count))]
        DBusCall.send(to: destination, path: "/org/freedesktop/portal/desktop", interface: "org.freedesktop.portal.Background",
                      method: "RequestBackground", parameters: g_variant_new_tuple(&arguments, 2)) { [waiting] message in
            waiting.finish(Answer(background: false, autostart: false, failure: message))
        }
    }

    /// One request's wait for its answer: it unsubscribes and answers once, whichever comes first
    /// (the response, or the call's failure).
    private final class Waiting: @unchecked Sendable {
        let bus: OpaquePointer
        var subscription: guint = 0
        var completion: (@MainActor (Answer) -> Void)?

        init(bus: OpaquePointer, completion: @escaping @MainActor (Answer) -> Void) {
            g_object_ref(UnsafeMutableRawPointer(bus))
            self.bus = bus
            self.completion = completion
        }

        deinit { g_object_unref(UnsafeMutableRawPointer(bus)) }

        @MainActor
        func finish(_ answer: Answer) {
            guard let completion else { return }
            self.completion = nil
            // GLib drops its retain of this object later, from an idle (so also from inside the callback).
            g_dbus_connection_signal_unsubscribe(bus, subscription)
            completion(answer)
        }
    }

    /// `Response`'s (u response, a{sv} results): 0 is granted; the results say what was.
    private nonisolated static func answer(of parameters: OpaquePointer) -> Answer {
        let code = g_variant_get_child_value(parameters, 0)!
        defer { g_variant_unref(code) }
        let results = g_variant_get_child_value(parameters, 1)!
        defer { g_variant_unref(results) }
        func flag(_ key: String) -> Bool {
            guard let value = g_variant_lookup_value(results, key, nil) else { return false }
            defer { g_variant_unref(value) }
            return g_variant_classify(value) == G_VARIANT_CLASS_BOOLEAN && Bool(gboolean: g_variant_get_boolean(value))
        }
        let response = g_variant_get_uint32(code)
        return Answer(background: flag("background"), autostart: flag("autostart"),
                      failure: response == 0 ? nil : "the portal answered \(response) (\(response == 1 ? "refused" : "ended"))")
    }

    private static func entry(_ key: String, _ value: OpaquePointer) -> OpaquePointer {
        g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value))
    }

    private static func dictionaryType() -> OpaquePointer {
        g_variant_type_new("{sv}")
    }
}
