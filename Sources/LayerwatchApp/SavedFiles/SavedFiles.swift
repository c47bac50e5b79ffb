import CGtk
import Foundation
import PrinterKit

/// Where Layerwatch keeps what it saves for the user, and under which names: snapshots in
/// `$XDG_PICTURES_DIR/Layerwatch`, recordings in `$XDG_VIDEOS_DIR/Layerwatch`, each named after the
/// printer and the time ("X1C 2026-11-22 16.30.05.png"); a name taken gets a " (2)" when the file
/// is made (`ExclusiveFile`), never over what is there.
enum SavedFiles {
    /// One of the user's folders (XDG) that the app saves into.
    enum Kind {
        case pictures, videos

        var xdgFolder: String? {
            g_get_user_special_dir(self == .pictures ? G_USER_DIRECTORY_PICTURES : G_USER_DIRECTORY_VIDEOS).map { String(cString: $0) }
        }

        /// The folder under the home when XDG names none.
        var fallback: String { self == .pictures ? "Pictures" : "Videos" }
    }

    /// `xdgFolder/Layerwatch`, or `$HOME/<Pictures or Videos>/Layerwatch` when XDG names no such
    /// folder: the home the config follows too (`UserHome`), not the password database's.
    static func folder(_ kind: Kind, xdgFolder: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let folder = xdgFolder ?? (UserHome.path(environment: environment) as NSString).appendingPathComponent(kind.fallback)
        return URL(fileURLWithPath: folder, isDirectory: true).appendingPathComponent("Layerwatch", isDirectory: true)
    }

    /// The folder for `kind` on this machine.
    static func folder(_ kind: Kind) -> URL {
        folder(kind, xdgFolder: kind.xdgFolder)
    }

    /// Where snapshots go: the folder chosen in Preferences, else Pictures/Layerwatch.
    static func snapshotFolder(_ preferences: Preferences) -> URL {
        preferences.snapshotFolder.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? folder(.pictures)
    }

    /// Where recordings and timelapses go: the folder chosen in Preferences, else Videos/Layerwatch.
    static func recordingFolder(_ preferences: Preferences) -> URL {
        preferences.recordingFolder.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? folder(.videos)
    }

    /// How messages name `folder`: from the home folder down ("Videos/Layerwatch") when it is in
    /// it, else its whole path.
    static func shownName(of folder: URL, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let home = URL(fileURLWithPath: UserHome.path(environment: environment), isDirectory: true).standardizedFileURL.path
        let path = folder.standardizedFileURL.path
        guard path.hasPrefix(home + "/") else { return path }
        return String(path.dropFirst(home.count + 1))
    }

    /// "Printer name 2026-11-22 16.30.05.EXT", with characters that don't belong in a file name
    /// replaced. The printer's part is cut to `maximumNameBytes`, so a long name still gives a file
    /// name the file system takes (255 bytes), with room for the time and a " (2)".
    static func name(printer: String, at date: Date, extension fileExtension: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH.mm.ss"
        let unsafe = { (character: Character) in
            "/\\:*?\"<>|".contains(character) || character.unicodeScalars.contains { $0.properties.generalCategory == .control }
        }
        var safe = String(printer.map { unsafe($0) ? "-" : $0 })
            .trimmingCharacters(in: .whitespaces)
        while safe.utf8.count > maximumNameBytes { safe.removeLast() }
        return "\(safe) \(formatter.string(from: date)).\(fileExtension)"
    }

    static let maximumNameBytes = 160
}
