import Foundation
import GtkKit
import StreamKit

/// Running with no window: closing the main window while printers are watched, and `--background`.
extension LayerwatchApplication {
    /// The notification that tells, the first time, that Layerwatch goes on with its window closed.
    static let backgroundNoticeID = "background"

    /// Whether closing the main window now keeps Layerwatch running: the preference is on and
    /// something is watched — a printer's status (its timelapse follows it), or a recording.
    var closesToBackground: Bool {
        library.config.preferences.runInBackground && (statusHub.watchedPrinters > 0 || !recordings.isEmpty)
    }

    /// Goes on with no window. The status connections, notifications and timelapses run on their
    /// own; the recordings' cameras are held connected, and every other camera is let go with its
    /// views (nothing is decoded for nobody: a timelapse holds its camera while its print runs, and
    /// a notification connects for its picture). The first time, a notification says so and how
    /// to quit.
    func goToBackground() {
        recordings.holdSessions()
        background.hold { [weak self] in self?.restartLeanIfIdle() }
        askThePortal()
        let watched = statusHub.watchedPrinters
        GLibLog.debug("the window closed; watching \(watched) printers in the background")
        guard !library.config.backgroundNoticeShown else { return }
        library.markBackgroundNoticeShown()
        let body = watched > 0
            ? String(format: trPlural("Layerwatch keeps watching %ld printer and tells you when a print finishes or fails.",
                                      "Layerwatch keeps watching %ld printers and tells you when a print finishes or fails.", watched), watched)
            : tr("Layerwatch keeps recording.")
        DesktopNotification(title: tr("Layerwatch Is Still Running"),
                            body: body + " " + tr("To quit, open Layerwatch and press Ctrl+Q, or choose Quit here."),
                            icon: DesktopNotification.themedIcon(Self.applicationID),
                            buttons: [(tr("Quit"), Feature.quit.actionName, nil)])
            .send(from: application, id: Self.backgroundNoticeID)
    }

    /// Replaces the process with `layerwatch --background` (`LeanRestart`) when it may: asked for
    /// (`restartsLean`), still with no window, and nothing in memory to keep — no recording, no
    /// timelapse holding its camera, no notification on its way; while one of these holds it, it
    /// is tried again when that ends (`holdEnded`). What is saved reaches the disk first; the
    /// status connections end with the process and the new one opens them again.
    private func restartLeanIfIdle() {
        guard restartsLean, window == nil, background.isHeld else { return }
        waitsForIdle = !recordings.isEmpty || timelapses?.holdsACamera == true || !(notifier?.isIdle ?? true)
        guard !waitsForIdle else {
            GLibLog.debug("a recording, timelapse or notification holds the process; restarting lean when it ends")
            return
        }
        GLibLog.debug("replacing the process with `layerwatch --background`, to let go of what the window used")
        timelapses?.flush()
        flushSaves()
        GLibLog.warning("could not restart as `layerwatch --background` (\(LeanRestart.replaceProcess())); going on as is")
    }

    /// A recording, a timelapse's camera or a notification stopped holding the process: the lean
    /// restart the settle put off is tried again, once the main loop has finished with what ended.
    func holdEnded() {
        guard waitsForIdle else { return }
        MainLoopExecutor.main.runOnMainActor { [weak self] in
            guard let self, waitsForIdle else { return }
            restartLeanIfIdle()
        }
    }

    /// `--background` (at login): watches the saved printers with no window; with nothing to watch
    /// (no printer has status, once the keyring's codes are in) the process ends.
    func startInBackground() {
        background.hold()
        askThePortal()
        library.whenSecretsLoaded { [weak self] in
            guard let self, window == nil, statusHub.watchedPrinters == 0 else { return }
            GLibLog.debug("started in the background with no printer to watch; ending")
            background.release()
        }
    }

    /// In a sandbox, tells the Background portal that Layerwatch goes on with no window, and why
    /// (the desktop lists it as running in the background, or asks the user); the autostart it
    /// passes is the preference's, so asking never changes start at login. Elsewhere holding the
    /// application is all it takes.
    private func askThePortal() {
        let autostart = preferences.autostart
        guard autostart.usesPortal else { return }
        BackgroundPortal.request(reason: tr("Layerwatch keeps watching your printers with its window closed, to tell you when a print ends."),
                                 autostart: library.config.preferences.startAtLogin, commandLine: Autostart.portalCommandLine,
                                 destination: autostart.portalName) { answer in
            if let failure = answer.failure {
                GLibLog.warning("the Background portal did not answer: \(failure)")
            } else if !answer.background {
                GLibLog.warning("the desktop does not let Layerwatch run in the background; it may be ended with no window")
            }
        }
    }
}
