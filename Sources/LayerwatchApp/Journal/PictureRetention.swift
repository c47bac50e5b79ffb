import Foundation
import GtkKit
import JournalKit
import PrinterKit

/// The journal's pictures kept for as many days as the preferences say (`keepPicturesDays`): the
/// older ones are pruned by the store, off the main loop, at start, at once when the setting
/// changes, and once a day while Layerwatch runs.
@MainActor
final class PictureRetention {
    private let store: JournalStore
    private var observation: PrinterLibrary.Observation?
    private var daily: RepeatingTimer?
    /// The days kept as last obeyed; 0: for ever.
    private var days: Int?

    init(store: JournalStore, library: PrinterLibrary) {
        self.store = store
        observation = library.observePreferences { [weak self] preferences in self?.keep(days: preferences.keepPicturesDays) }
        daily = RepeatingTimer(seconds: 24 * 60 * 60) { [weak self] in self?.prune() }
    }

    private func keep(days: Int) {
        guard days != self.days else { return }
        self.days = days
        prune()
    }

    private func prune() {
        guard let days, days > 0 else { return }
        store.prunePictures(endedBefore: Date().addingTimeInterval(-Double(days) * 24 * 60 * 60))
    }
}
