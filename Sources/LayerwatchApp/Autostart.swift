import Foundation
import GtkKit
import PrinterKit
import StreamKit

/// Start at Login, obeyed: outside a sandbox an XDG autostart entry
/// (`$XDG_CONFIG_HOME/autostart/io.github.layerwatch.Layerwatch.desktop`) starting
/// `layerwatch --background`, written when the preference is on and removed when it is off; inside
/// Flatpak, which cannot write there, the Background portal's autostart (`BackgroundPortal`).
@MainActor
final class Autostart {
    /// What login starts: the installed binary, without a window.
    static let commandLine = ["layerwatch", "--background"]

    /// Whether the portal is asked instead of writing the entry (inside Flatpak, unless a test says).
    let usesPortal: Bool
    /// The autostart folder the entry goes in.
    let folder: URL
    /// The portal's bus name (tests answer with a fake of their own).
    let portalName: String
    /// The portal's answers, for the log and for tests.
    var onPortalAnswer: @MainActor (BackgroundPortal.Answer) -> Void = { _ in }
    /// The preference as last applied, to act only on its changes.
    private var applied: Bool?

    init(usesPortal: Bool = FileManager.default.fileExists(atPath: "/.flatpak-info"), folder: URL = Autostart.defaultFolder(),
         portalName: String = "org.freedesktop.portal.Desktop") {
        self.usesPortal = usesPortal
        self.folder = folder
        self.portalName = portalName
    }

    /// `$XDG_CONFIG_HOME/autostart`, or `~/.config/autostart` (beside the config's own folder).
    nonisolated static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        ConfigStore.defaultDirectory(environment: environment).deletingLastPathComponent().appendingPathComponent("autostart", isDirectory: true)
    }

    var entry: URL { folder.appendingPathComponent("\(LayerwatchApplication.applicationID).desktop") }

    /// Makes login start Layerwatch or not, when the preference changes. At start, an entry that
    /// is on is written again (a moved or deleted one comes back); one that is off is left alone
    /// (a test's config never removes the user's entry), and the portal is not asked.
    func apply(_ on: Bool) {
        let previous = applied
        applied = on
        guard previous != on, previous != nil || on else { return }
        guard usesPortal else { return write(on) }
        guard previous != nil else { return }
        BackgroundPortal.request(reason: tr("Layerwatch starts when you log in to watch your printers."), autostart: on,
                                 commandLine: Self.commandLine, destination: portalName) { [weak self] answer in
            if let failure = answer.failure { GLibLog.warning("the Background portal did not set autostart: \(failure)") }
            self?.onPortalAnswer(answer)
        }
    }

    private func write(_ on: Bool) {
        do {
            if on {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Self.desktopEntry.write(to: entry, atomically: true, encoding: .utf8)
            } else if FileManager.default.fileExists(atPath: entry.path) {
                try FileManager.default.removeItem(at: entry)
            }
        } catch {
            GLibLog.warning("could not \(on ? "write" : "remove") the autostart entry \(entry.path): \(error.localizedDescription)")
        }
    }

    /// The XDG autostart entry: the desktop file's name and icon, the background command line.
    static var desktopEntry: String {
        """
        [Desktop Entry]
        Type=Application
        Name=Layerwatch
        Comment=Watch your 3D printers in the background
        Exec=\(commandLine.joined(separator: " "))
        TryExec=\(commandLine[0])
        Icon=\(LayerwatchApplication.applicationID)
        Terminal=false
        NoDisplay=true
        X-GNOME-Autostart-enabled=true

        """
    }
}
