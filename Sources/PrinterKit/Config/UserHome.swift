import Foundation

/// The user's home folder as the session sees it: `$HOME` when set (as GLib reads it, and as tests
/// and sandboxes point it elsewhere), the password database's entry only when `$HOME` is empty.
public enum UserHome {
    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
    }
}
