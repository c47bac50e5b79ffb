import CGtk
import Foundation

/// A desktop notification as GApplication sends it (GNotification): a title, a body, an icon, a
/// priority, the action its click activates and its buttons. GLib picks the way there: the portal in flatpak,
/// `org.gtk.Notifications` where one runs (GNOME Shell), else `org.freedesktop.Notifications`.
/// Sending it again with the same id replaces the one shown.
public struct DesktopNotification {
    /// How much it matters: high ones may stay on screen until dismissed; urgent ones ask for
    /// attention at once (the desktop's sound and a banner even in Do Not Disturb, on GNOME).
    public enum Priority {
        case normal, high, urgent
    }

    public var title: String
    public var body: String?
    /// A GIcon (`bytesIcon`, `themedIcon`); nil leaves it to the desktop.
    public var icon: GObjectRef<OpaquePointer>?
    public var priority: Priority
    /// The application action a click activates (`app.NAME`) and the string handed to it.
    public var defaultAction: (name: String, target: String)?
    /// Buttons: each its label, the application action it activates and the string handed to it
    /// (none for an action without a parameter).
    public var buttons: [(label: String, action: String, target: String?)]

    public init(title: String, body: String? = nil, icon: GObjectRef<OpaquePointer>? = nil, priority: Priority = .normal,
                defaultAction: (name: String, target: String)? = nil, buttons: [(label: String, action: String, target: String?)] = []) {
        self.title = title
        self.body = body
        self.icon = icon
        self.priority = priority
        self.defaultAction = defaultAction
        self.buttons = buttons
    }

    /// Shows it as `application`'s (registered, primary) notification `id`.
    @MainActor
    public func send(from application: some GObjectPointer, id: String) {
        let notification = GObjectRef(adopting: g_notification_new(title)!)
        if let body { g_notification_set_body(notification.pointer, body) }
        if let icon { g_notification_set_icon(notification.pointer, icon.pointer) }
        let level = switch priority {
        case .normal: G_NOTIFICATION_PRIORITY_NORMAL
        case .high: G_NOTIFICATION_PRIORITY_HIGH
        case .urgent: G_NOTIFICATION_PRIORITY_URGENT
        }
        g_notification_set_priority(notification.pointer, level)
        if let action = defaultAction {
            g_notification_set_default_action_and_target_value(notification.pointer, action.name, g_variant_new_string(action.target))
        }
        for button in buttons {
            if let target = button.target {
                g_notification_add_button_with_target_value(notification.pointer, button.label, button.action, g_variant_new_string(target))
            } else {
                g_notification_add_button(notification.pointer, button.label, button.action)
            }
        }
        g_application_send_notification(gcast(application), id, notification.pointer)
    }

    /// Takes `application`'s notification `id` off the desktop, if it is still shown.
    @MainActor
    public static func withdraw(from application: some GObjectPointer, id: String) {
        g_application_withdraw_notification(gcast(application), id)
    }

    /// Whether the server GLib sends notifications to reads their body as markup, so that a body
    /// holding a printer's or a job's name must be escaped. The portal (in a sandbox) and
    /// `org.gtk.Notifications` (GNOME Shell) take plain text; an `org.freedesktop.Notifications`
    /// server reads markup when its capabilities list `body-markup`, and one that does not answer is
    /// taken to. Asks the session bus and waits up to a second: call it off the main loop.
    public static func bodyIsMarkup() -> Bool {
        if FileManager.default.fileExists(atPath: "/.flatpak-info") || DBusNames.hasOwner("org.gtk.Notifications") {
            return false
        }
        return DBusNames.strings(from: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                 method: "GetCapabilities")?.contains("body-markup") ?? true
    }

    /// An icon made of an encoded picture (PNG, JPEG): the desktop decodes it.
    public static func bytesIcon(_ picture: [UInt8]) -> GObjectRef<OpaquePointer> {
        let bytes = g_bytes_new(picture, gsize(picture.count))
        defer { g_bytes_unref(bytes) }
        return GObjectRef(adopting: g_bytes_icon_new(bytes)!)
    }

    /// The icon theme's icon `name` (an application's icon is named by its id).
    public static func themedIcon(_ name: String) -> GObjectRef<OpaquePointer> {
        GObjectRef(adopting: g_themed_icon_new(name)!)
    }
}
