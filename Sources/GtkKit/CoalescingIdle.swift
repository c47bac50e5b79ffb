import Synchronization

/// Lets a producer on any thread ask for main-loop work as often as it likes (a decoder announcing
/// every frame) while at most one idle is ever pending: `schedule()` only queues an idle when none
/// is, and the handler, run once per idle, picks up whatever is latest.
public final class CoalescingIdle: Sendable {
    private let pending = Atomic<Bool>(false)
    private let executor: MainLoopExecutor
    private let handler: @Sendable @MainActor () -> Void

    public init(executor: MainLoopExecutor = .main, handler: @escaping @Sendable @MainActor () -> Void) {
        self.executor = executor
        self.handler = handler
    }

    /// Requests one run of the handler on the main loop; free if a run is already pending.
    /// The pending idle keeps this object alive until it has run.
    public func schedule() {
        guard pending.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        executor.runOnMainActor { [self] in
            // Re-arm before running, so a schedule() racing with the handler queues another run
            // instead of being lost.
            pending.store(false, ordering: .sequentiallyConsistent)
            handler()
        }
    }
}
