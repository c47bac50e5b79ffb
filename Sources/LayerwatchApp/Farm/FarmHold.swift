import Foundation
import GtkKit

/// Keeps the farm's tiles where they are while someone acts on them: a tile that moves between a
/// look and a click puts the click on another printer (the next click at the same place opened the
/// wrong printer's menu). The order holds while `isBusy` (a tile's menu or a dialog over the window
/// is open) and for `seconds` after the last pointer motion, click or key in the grid, or a menu
/// closing (an action was chosen); a reorder asked for meanwhile waits and then happens once.
/// A pointer merely resting over the grid does not hold it: a farm is watched for hours with the
/// pointer parked on it.
@MainActor
final class FarmHold {
    /// How long the tiles stay put after the last sign of someone at them.
    static let seconds: TimeInterval = 3

    /// Whether something of a tile is open now (its menu, a dialog it opened).
    var isBusy: @MainActor () -> Bool = { false }
    /// The hold is over and a reorder was asked for during it.
    var onRelease: @MainActor () -> Void = {}

    private var lastActivity: Date?
    /// Ticks while a reorder waits, until the hold ends.
    private var waiting: RepeatingTimer?

    /// Someone moved, clicked or typed in the grid, or closed a tile's menu.
    func noteActivity() {
        lastActivity = Date()
    }

    /// Whether the tiles must stay put now.
    var holds: Bool {
        isBusy() || lastActivity.map { Date().timeIntervalSince($0) < Self.seconds } ?? false
    }

    /// True when the tiles may move now; otherwise remembers that they should once the hold ends.
    func mayMove() -> Bool {
        guard holds else { return true }
        if waiting == nil {
            waiting = RepeatingTimer(milliseconds: 250) { [weak self] in
                guard let self, !holds else { return }
                cancel()
                onRelease()
            }
        }
        return false
    }

    /// Forgets a waiting reorder (the farm is going away).
    func cancel() {
        waiting?.cancel()
        waiting = nil
    }
}
