import CGtk
import Foundation
import GtkKit

/// "Show in Files": the desktop's file manager shows a saved file selected in its folder, as GNOME
/// Shell's screenshot notification asks it: `org.freedesktop.FileManager1.ShowItems` (Nautilus,
/// Nemo, Dolphin…). Inside Flatpak that name is out of the sandbox's reach, so the OpenURI portal's
/// `OpenDirectory` asks instead (handed the file itself; the portal shows it the same way). Where
/// neither answers, the folder opens in the desktop's application for folders.
@MainActor
enum ShowInFiles {
    static func show(_ file: URL) {
        let openFolder: @MainActor (String) -> Void = { reason in
            GLibLog.warning("the file manager did not show the saved file (\(reason)); opening its folder")
            launchDefault(for: file.deletingLastPathComponent())
        }
        if FileManager.default.fileExists(atPath: "/.flatpak-info") {
            let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return openFolder(String(cString: strerror(errno))) }
            let options = g_variant_type_new("{sv}")!
            defer { g_variant_type_free(options) }
            var arguments: [OpaquePointer?] = [g_variant_new_string(""), g_variant_new_handle(0), g_variant_new_array(options, nil, 0)]
            DBusCall.send(to: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
                          interface: "org.freedesktop.portal.OpenURI", method: "OpenDirectory",
                          parameters: g_variant_new_tuple(&arguments, 3), fileDescriptors: [descriptor], failed: openFolder)
        } else {
            let uris = withCStringArray([file.absoluteString]) { g_variant_new_strv($0, 1)! }
            var arguments: [OpaquePointer?] = [uris, g_variant_new_string("")]  // no startup id: the toast's click carries none
            DBusCall.send(to: "org.freedesktop.FileManager1", path: "/org/freedesktop/FileManager1",
                          interface: "org.freedesktop.FileManager1", method: "ShowItems",
                          parameters: g_variant_new_tuple(&arguments, 2), failed: openFolder)
        }
    }

    /// Opens `url` in the desktop's application for it (a picture viewer, a video player, a file
    /// manager for a folder); a failure is logged.
    static func launchDefault(for url: URL) {
        var error: UnsafeMutablePointer<GError>?
        if g_app_info_launch_default_for_uri(url.absoluteString, nil, &error) == 0 {
            GLibLog.warning("could not open \(url.path): \(error.map { String(cString: $0.pointee.message) } ?? "?")")
            g_clear_error(&error)
        }
    }
}
