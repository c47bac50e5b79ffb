import Foundation
import GtkKit
import JournalKit
import PrinterKit

/// The journal's pictures kept for as many days as the preferences say (`keepPicturesDays`) and
/// within the total size they allow (`picturesLimitMB`, the oldest deleted first): pruned by the
/// store, off the main loop, at start, at once when a setting changes, once a day while Layerwatch
/// runs, and by size after each picture the journal keeps (`pictureAdded`).
@MainActor
final class PictureRetention {
    private let store: JournalStore
    private var observation: PrinterLibrary.Observation?
    private var daily: RepeatingTimer?
    /// The days kept and the megabytes allowed as last obeyed; 0: for ever, no limit.
    private var days: Int?
    private var limitMB: Int?

    init(store: JournalStore, library: PrinterLibrary) {
        self.store = store
        observation = library.observePreferences { [weak self] preferences in
            self?.keep(days: preferences.keepPicturesDays, limitMB: preferences.picturesLimitMB)
        }
        daily = RepeatingTimer(seconds: 24 * 60 * 60) { [weak self] in self?.prune() }
    }

    /// Keeps the pictures within the size limit once a picture was added.
    func pictureAdded() {
        pruneBySize()
    }

    private func keep(days: Int, limitMB: Int) {
        guard days != self.days || limitMB != self.limitMB else { return }
        (self.days, self.limitMB) = (days, limitMB)
        prune()
    }

    private func prune() {
        if let days, days > 0 {
            store.prunePictures(endedBefore: Date().addingTimeInterval(-Double(days) * 24 * 60 * 60))
        }
        pruneBySize()
    }

    private func pruneBySize() {
        guard let limitMB, limitMB > 0 else { return }
        store.prunePictures(toAtMost: Int64(limitMB) * 1_000_000)
    }
}
