import Foundation
import GtkKit
import JournalKit

/// Each printer's last print that ended, from the journal, for whatever shows it (an idle
/// printer's farm tile): read off the main loop when first asked, and again whenever one of the
/// printer's prints ends or gets its final picture (`changed`), so the newest always shows.
@MainActor
final class LastPrints {
    /// Keeps one `observe` call's handler alive: the handler is dropped with its observation.
    final class Observation {
        fileprivate init() {}
    }

    private struct Observer {
        weak var observation: Observation?
        let printerID: UUID
        let handler: @MainActor (JournalPrint?) -> Void
    }

    private let store: JournalStore
    private var observers: [Observer] = []

    init(store: JournalStore) {
        self.store = store
    }

    /// Calls `handler` with printer `printerID`'s last ended print (nil: none yet) once read, and
    /// again after each change, for as long as the returned observation is kept.
    func observe(_ printerID: UUID, _ handler: @escaping @MainActor (JournalPrint?) -> Void) -> Observation {
        let observation = Observation()
        observers.removeAll { $0.observation == nil }
        observers.append(Observer(observation: observation, printerID: printerID, handler: handler))
        changed(printerID)
        return observation
    }

    /// A print of printer `printerID` ended, or its final picture was saved (the journal's writes
    /// for it are queued already, so the read sees them).
    func changed(_ printerID: UUID) {
        guard observers.contains(where: { $0.printerID == printerID && $0.observation != nil }) else { return }
        let store = store
        DispatchQueue.global(qos: .utility).async {
            let ended: Set<PrintResult> = [.finished, .failed, .cancelled]
            let last = store.prints(JournalQuery(printerID: printerID.uuidString, results: ended, limit: 1)).first
            MainLoopExecutor.main.runOnMainActor { [weak self] in
                guard let self else { return }
                observers.removeAll { $0.observation == nil }
                for observer in observers where observer.printerID == printerID { observer.handler(last) }
            }
        }
    }
}
