import CGtk
import CLayerwatch
import Foundation
import GtkKit
import StreamKit

/// Layerwatch running with no window: the application held (GApplication's use count), so that
/// closing the last window does not end the process while printers are watched, until a window
/// comes back or Quit. It exists so the one job of a monitor — telling when a print ends — goes on
/// when nobody looks. It holds the policy too: whether closing the last window goes to the
/// background, the first time's notice, the Background portal, and the lean restart once idle.
@MainActor
final class BackgroundStay {
    /// The notification that tells, the first time, that Layerwatch goes on with its window closed.
    static let noticeID = "background"

    private let application: OpaquePointer
    private unowned let library: PrinterLibrary
    private let hub: PrinterStatusHub
    private let recordings: Recordings
    private unowned let preferences: AppPreferences
    /// Whether the application is held (running with no window).
    private(set) var isHeld = false
    /// Calls `settled` once the window's views are gone.
    private var settle: RepeatingTimer?
    /// How long after the window goes it has settled: the cameras' threads end within FFmpeg's
    /// interrupt poll, well before.
    static let settleDelay: UInt32 = 5
    /// Whether a process closed to the background replaces itself with a lean one (`LeanRestart`):
    /// the `layerwatch` executable's choice; tests that run the app inside their own process leave
    /// it off.
    var restartsLean = false
    /// Set when the lean restart was put off by something holding the process (`holdEnded`).
    private var waitsForIdle = false
    /// What else may hold the process in the background (made in the application's `startup`).
    weak var notifier: PrintNotifier?
    weak var timelapses: TimelapseTaker?
    weak var journal: PrintJournal?
    /// Told when Layerwatch goes on with no window: the user is away.
    weak var away: AwayWatch?

    init(application: OpaquePointer, library: PrinterLibrary, hub: PrinterStatusHub, recordings: Recordings,
         preferences: AppPreferences) {
        self.application = application
        self.library = library
        self.hub = hub
        self.recordings = recordings
        self.preferences = preferences
    }

    /// Keeps the process running with no window; `settled` runs once what the window's views used
    /// is freed (`settleDelay` later, unless a window came back), after the freed memory is given
    /// back to the system.
    func hold(settled: @escaping @MainActor () -> Void = {}) {
        guard !isHeld else { return }
        isHeld = true
        away?.wentToBackground()
        g_application_hold(gcast(application))
        settle = RepeatingTimer(seconds: Self.settleDelay) { [weak self] in
            self?.settle = nil
            // Freed memory stays in glibc's arenas (one per thread that decoded) unless handed back:
            // about 60 MiB of the window's 8 cameras (bench/BACKGROUND.md).
            lw_release_freed_memory()
            lw_release_clean_file_pages()
            settled()
        }
    }

    /// Lets the process end with its last window again (a window is back, or Quit).
    func release() {
        waitsForIdle = false
        guard isHeld else { return }
        isHeld = false
        settle = nil
        g_application_release(gcast(application))
    }

    /// Whether closing the last window now keeps Layerwatch running: the preference is on and
    /// something is watched — a printer's status (its timelapse follows it), or a recording.
    var closesToBackground: Bool {
        library.config.preferences.runInBackground && (hub.watchedPrinters > 0 || !recordings.isEmpty)
    }

    /// Goes on with no window. The status connections, notifications and timelapses run on their
    /// own; the recordings' cameras are held connected, and every other camera is let go with its
    /// views (nothing is decoded for nobody: a timelapse holds its camera while its print runs, and
    /// a notification connects for its picture). The first time, a notification says so and how
    /// to quit.
    func goToBackground() {
        recordings.holdSessions()
        hold { [weak self] in self?.restartLeanIfIdle() }
        askThePortal()
        let watched = hub.watchedPrinters
        GLibLog.debug("the window closed; watching \(watched) printers in the background")
        guard !library.config.backgroundNoticeShown else { return }
        library.markBackgroundNoticeShown()
        let body = watched > 0
            ? String(format: trPlural("Layerwatch keeps watching %ld printer and tells you when a print finishes or fails.",
                                      "Layerwatch keeps watching %ld printers and tells you when a print finishes or fails.", watched), watched)
            : tr("Layerwatch keeps recording.")
        DesktopNotification(title: tr("Layerwatch Is Still Running"),
                            body: body + " " + tr("To quit, open Layerwatch and press Ctrl+Q, or choose Quit here."),
                            icon: DesktopNotification.themedIcon(LayerwatchApplication.applicationID),
                            buttons: [(tr("Quit"), Feature.quit.actionName, nil)])
            .send(from: application, id: Self.noticeID)
    }

    /// Replaces the process with `layerwatch --background` (`LeanRestart`) when it may: asked for
    /// (`restartsLean`), still held with no window, and nothing in memory to keep — no recording, no
    /// timelapse holding its camera, no notification on its way, no print's picture being
    /// taken; while one of these holds it, it
    /// is tried again when that ends (`holdEnded`). What is saved reaches the disk first; the
    /// status connections end with the process and the new one opens them again; when the user left
    /// goes to the new one (`AwayWatch.handOver`).
    private func restartLeanIfIdle() {
        guard restartsLean, isHeld else { return }
        waitsForIdle = !recordings.isEmpty || timelapses?.holdsACamera == true || !(notifier?.isIdle ?? true) || !(journal?.isIdle ?? true)
        guard !waitsForIdle else {
            GLibLog.debug("a recording, timelapse, notification or journal picture holds the process; restarting lean when it ends")
            return
        }
        GLibLog.debug("replacing the process with `layerwatch --background`, to let go of what the window used")
        timelapses?.flush()
        library.flush()
        notifier?.flush()
        journal?.flush()
        let handOver = away?.handOver.map { [AwayWatch.handOverVariable: $0] } ?? [:]
        GLibLog.warning("could not restart as `layerwatch --background` (\(LeanRestart.replaceProcess(environment: handOver))); going on as is")
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
        hold()
        askThePortal()
        library.whenSecretsLoaded { [weak self] in
            guard let self, isHeld, hub.watchedPrinters == 0 else { return }
            GLibLog.debug("started in the background with no printer to watch; ending")
            release()
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
