import CGtk
import Foundation
import GtkKit
import JournalKit
import StreamKit

/// Notes when the user left the main window — it stopped being the active window (another window
/// in front, minimised, closed) or Layerwatch went on in the background — and, when the window is
/// active again after `threshold` or more, or at all after the background, tells in its banner
/// what prints ended meanwhile ("While you were away: 3 finished, 1 failed", read from the journal
/// off the main loop), with Show leading to them on the History page (`historyAction`, with the
/// time the user left). It exists so that "what happened while I was away?" is answered unasked.
/// A process replacing itself in the background (`LeanRestart`) hands the time the user left to
/// the next one (`handOver`), so what ended before the restart is told too.
@MainActor
final class AwayWatch {
    /// The window's action showing the History page with the prints ended since its parameter
    /// (seconds since 1970, UTC).
    static let historyAction = "win.show-history-since"
    /// The environment variable that hands the time the user left (seconds since 1970) to the
    /// process this one is replaced with.
    static let handOverVariable = "LAYERWATCH_AWAY_SINCE"

    private let store: JournalStore
    /// What time it is; tests move it on rather than wait.
    var clock: () -> Date = Date.init
    /// How long the window must have been left for its return to be told.
    var threshold: TimeInterval = 10 * 60
    /// When the user left, until they come back.
    private var left: Date?
    /// Whether Layerwatch went on in the background since.
    private var inBackground = false

    /// Takes over the time the user left from the process this one replaced, if it handed one.
    init(store: JournalStore) {
        self.store = store
        if let handed = ProcessInfo.processInfo.environment[Self.handOverVariable].flatMap(TimeInterval.init) {
            (left, inBackground) = (Date(timeIntervalSince1970: handed), true)
        }
        unsetenv(Self.handOverVariable)  // not for the programs Layerwatch starts
    }

    /// The time the user left, for the process this one is replaced with (`handOverVariable`);
    /// nil while they are here.
    var handOver: String? {
        left.map { String($0.timeIntervalSince1970) }
    }

    /// Follows whether `window` is the active window.
    func watch(_ window: MainWindow) {
        connectNotify(window.window, "is-active") { [weak self, weak window] in
            guard let self, let window else { return }
            if Bool(gboolean: gtk_window_is_active(gcast(window.window))) { cameBack(to: window) } else { leave() }
        }
    }

    /// Layerwatch goes on with no window: closed to the background, or started there.
    func wentToBackground() {
        leave()
        inBackground = true
    }

    private func leave() {
        if left == nil { left = clock() }
    }

    private func cameBack(to window: MainWindow) {
        guard let left else { return }
        let told = inBackground || clock().timeIntervalSince(left) >= threshold
        (self.left, inBackground) = (nil, false)
        guard told else { return }
        let store = store
        DispatchQueue.global(qos: .utility).async {
            let endings = store.endings(since: left)
            MainLoopExecutor.main.runOnMainActor { [weak window] in
                guard let window, let text = AwaySummary.text(endings) else { return }
                window.showBannerNews(text, button: Banner.Button(label: tr("Show"), action: Self.historyAction,
                                                                  target: Int64(left.timeIntervalSince1970.rounded(.down))))
            }
        }
    }
}
