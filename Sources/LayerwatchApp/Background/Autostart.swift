import Foundation
import GtkKit
import PrinterKit
import StreamKit

/// Start at Login, obeyed: outside a sandbox an XDG autostart entry
/// (`$XDG_CONFIG_HOME/autostart/io.github.layerwatch.Layerwatch.desktop`) starting this binary
/// (`AutostartProgram`, by its absolute path) with `--background`, written when the preference is
/// on and removed when it is off, and none written when no program can start Layerwatch (the
/// Preferences say so); inside Flatpak, which cannot write there, the Background portal's autostart
/// (`BackgroundPortal`).
@MainActor
final class Autostart {
    /// What login starts inside Flatpak: the sandbox's command, without a window (the portal writes
    /// it as `flatpak run --command=layerwatch io.github.layerwatch.Layerwatch --background`).
    static let portalCommandLine = [AutostartProgram.name, "--background"]

    /// Whether the portal is asked instead of writing the entry (inside Flatpak, unless a test says).
    let usesPortal: Bool
    /// The autostart folder the entry goes in.
    let folder: URL
    /// The portal's bus name (tests answer with a fake of their own).
    let portalName: String
    /// The running binary as `/proc/self/exe` names it, and the PATH to look `layerwatch` up in
    /// (tests give their own).
    let executable: String?
    let searchPath: String?
    /// The portal's answers, for the log and for tests.
    var onPortalAnswer: @MainActor (BackgroundPortal.Answer) -> Void = { _ in }
    /// The preference as last applied, to act only on its changes.
    private var applied: Bool?

    init(usesPortal: Bool = FileManager.default.fileExists(atPath: "/.flatpak-info"), folder: URL = Autostart.defaultFolder(),
         portalName: String = "org.freedesktop.portal.Desktop", executable: String? = AutostartProgram.runningExecutable(),
         searchPath: String? = ProcessInfo.processInfo.environment["PATH"]) {
        self.usesPortal = usesPortal
        self.folder = folder
        self.portalName = portalName
        self.executable = executable
        self.searchPath = searchPath
    }

    /// The program the entry starts outside a sandbox; nil when none can start Layerwatch.
    var program: String? { AutostartProgram.choose(running: executable, searchPath: searchPath) }
    /// Whether login cannot start Layerwatch: outside a sandbox, with no program to name (the
    /// portal's command always can).
    var cannotStart: Bool { !usesPortal && program == nil }

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
                                 commandLine: Self.portalCommandLine, destination: portalName) { [weak self] answer in
            if let failure = answer.failure { GLibLog.warning("the Background portal did not set autostart: \(failure)") }
            self?.onPortalAnswer(answer)
        }
    }

    private func write(_ on: Bool) {
        do {
            if on {
                guard let program else {
                    return GLibLog.warning("no program can start Layerwatch at login: \(executable ?? "its binary") is gone and no \(AutostartProgram.name) is on PATH")
                }
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Self.desktopEntry(starting: program).write(to: entry, atomically: true, encoding: .utf8)
            } else if FileManager.default.fileExists(atPath: entry.path) {
                try FileManager.default.removeItem(at: entry)
            }
        } catch {
            GLibLog.warning("could not \(on ? "write" : "remove") the autostart entry \(entry.path): \(error.localizedDescription)")
        }
    }

    /// The XDG autostart entry: the desktop file's name and icon, `program --background`
    /// (`TryExec`: a session skips it once the program is gone). GLib's launcher, GNOME's autostart,
    /// checks that the command's program exists before it turns `%%` back into `%`, so a program
    /// whose path holds a `%` is started through `/usr/bin/env`.
    static func desktopEntry(starting program: String) -> String {
        let command = (program.contains("%") ? ["/usr/bin/env"] : []) + [program, "--background"]
        return """
        [Desktop Entry]
        Type=Application
        Name=Layerwatch
        Comment=Watch your 3D printers in the background
        Exec=\(DesktopEntryText.exec(command))
        TryExec=\(DesktopEntryText.string(program))
        Icon=\(LayerwatchApplication.applicationID)
        Terminal=false
        NoDisplay=true
        X-GNOME-Autostart-enabled=true

        """
    }
}
