import Foundation
import StatusKit
import StreamKit

/// What the print notifications last saw of each printer (a `PrintMark`), kept in
/// `$XDG_STATE_HOME/layerwatch/notifications.json` so that a restart does not notify again what was
/// already notified. Read at once when made; every change is written off the caller's thread, as
/// `printers.json` is (an atomic owner-only replace through `SafeFile`), newest state first. A file
/// that cannot be read is only logged: the next change writes a good one, and at worst an event
/// seen before is notified once more. Used from one thread (the app's main loop).
public final class NotificationLedger {
    public static let fileName = "notifications.json"

    public let directory: URL
    public var fileURL: URL { directory.appendingPathComponent(Self.fileName) }
    private var marks: [UUID: PrintMark]
    private let saver = DispatchQueue(label: "layerwatch.notification-ledger")
    private let pending = NewestPending<Data>()

    private struct File: Codable {
        var version = 1
        var printers: [String: PrintMark]
    }

    /// The ledger kept in `directory` (`defaultDirectory()` in the app, a temporary one in tests).
    public init(directory: URL) {
        self.directory = directory
        marks = [:]
        guard !SafeFile.isAbsent(fileURL) else { return }
        do {
            let file = try JSONDecoder().decode(File.self, from: SafeFile.read(fileURL))
            for (key, mark) in file.printers {
                if let id = UUID(uuidString: key) { marks[id] = mark }
            }
        } catch {
            StreamLog.log(.info, "notifications: \(fileURL.path) is not readable, starting without it (\(error))")
        }
    }

    /// `$XDG_STATE_HOME/layerwatch`, or `~/.local/state/layerwatch` when that is unset or not absolute.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("layerwatch")
        }
        return URL(fileURLWithPath: UserHome.path(environment: environment)).appendingPathComponent(".local/state/layerwatch")
    }

    /// The printer's mark; setting a different one saves the ledger.
    public subscript(printerID: UUID) -> PrintMark? {
        get { marks[printerID] }
        set {
            guard marks[printerID] != newValue else { return }
            marks[printerID] = newValue
            save()
        }
    }

    /// Forgets the printers not in `ids` (removed from the app).
    public func keep(only ids: Set<UUID>) {
        let kept = marks.filter { ids.contains($0.key) }
        guard kept.count != marks.count else { return }
        marks = kept
        save()
    }

    /// Waits until every change so far is on disk (before the app quits).
    public func flush() {
        saver.sync {}
    }

    private func save() {
        let file = File(printers: Dictionary(uniqueKeysWithValues: marks.map { ($0.key.uuidString, $0.value) }))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(file), pending.replace(with: data) else { return }
        let (directory, url, pending) = (directory, fileURL, pending)
        saver.async {
            guard let newest = pending.take() else { return }
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
                try SafeFile.write(newest, to: url.resolvingSymlinksInPath())
            } catch {
                StreamLog.log(.info, "notifications: could not save \(url.path): \(error)")
            }
        }
    }
}
