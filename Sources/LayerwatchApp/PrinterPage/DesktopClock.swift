import CGtk
import GtkKit
import StatusKit

/// The desktop's clock format, which the print's end time follows: GNOME's
/// `org.gnome.desktop.interface clock-format`, read where that schema is installed (elsewhere,
/// or with a value it does not know, the locale decides), and followed as it changes.
@MainActor
final class DesktopClock {
    /// Keeps one `observe` call's handler alive: the handler is dropped with its observation.
    final class Observation {
        fileprivate let handler: @MainActor () -> Void
        fileprivate init(_ handler: @escaping @MainActor () -> Void) { self.handler = handler }
    }

    private struct Observer {
        weak var observation: Observation?
    }

    static let shared = DesktopClock()

    /// The format the desktop asks for; nil: the locale's.
    private(set) var format: ClockFormat?
    private var settings: GObjectRef<UnsafeMutablePointer<GSettings>>?
    private var observers: [Observer] = []

    /// - Parameter backend: where the settings are read (nil: the desktop's; tests pass a memory backend).
    init(schema: String = "org.gnome.desktop.interface", key: String = "clock-format", backend: UnsafeMutablePointer<GSettingsBackend>? = nil) {
        guard let source = g_settings_schema_source_get_default(),
              let found = g_settings_schema_source_lookup(source, schema, true.gboolean) else { return }
        defer { g_settings_schema_unref(found) }
        guard Bool(gboolean: g_settings_schema_has_key(found, key)) else { return }
        let settings = GObjectRef(adopting: (backend.map { g_settings_new_with_backend(schema, $0) } ?? g_settings_new(schema))!)
        self.settings = settings
        connectSignal(settings.pointer, "changed::\(key)") { [weak self] (_: UnsafeMutableRawPointer?) in
            self?.read(key)
            self?.observers.removeAll { $0.observation == nil }
            self?.observers.forEach { $0.observation?.handler() }
        }
        read(key)
    }

    private func read(_ key: String) {
        guard let settings else { return }
        format = String(takingGLibString: g_settings_get_string(settings.pointer, key)).flatMap(ClockFormat.init(rawValue:))
    }

    /// Calls `handler` after every change of the format, for as long as the returned observation is kept.
    func observe(_ handler: @escaping @MainActor () -> Void) -> Observation {
        let observation = Observation(handler)
        observers.append(Observer(observation: observation))
        return observation
    }
}
