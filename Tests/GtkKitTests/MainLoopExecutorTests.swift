import CGtk
import Foundation
import GtkKit
import Synchronization
import TestSupport
import XCTest

/// The one hop from background threads to the GLib main loop. XCTest on Linux cannot call
/// main-actor test methods, so each test asserts the isolation it already has (tests run on the
/// main thread) with MainActor.assumeIsolated.
final class MainLoopExecutorTests: XCTestCase {
    override func setUp() {
        GtkTestEnvironment.prepare()
    }

    func testExecutorRunsBackgroundWorkOnTheMainThreadInOrder() {
        MainActor.assumeIsolated {
            let record = ExecutionRecord()
            let executor = MainLoopExecutor.main
            DispatchQueue.global().async {
                for step in 1...3 {
                    executor.execute { record.append(step, onMainThread: Thread.isMainThread) }
                }
            }

            XCTAssertTrue(iterateMainContext { record.steps.count == 3 })
            XCTAssertEqual(record.steps, [1, 2, 3])
            XCTAssertEqual(record.offMainThread, 0)
        }
    }

    func testMainActorWorkFromABackgroundThreadRunsInsideTheMainLoop() {
        MainActor.assumeIsolated {
            let record = MainLoopRecord()
            DispatchQueue.global().async {
                MainLoopExecutor.main.runOnMainActor { record.note() }
            }
            XCTAssertTrue(iterateMainContext { record.runs == 1 })
            XCTAssertEqual(record.ranInsideLoop, true, "dispatched by the GLib main context, not called inline")
        }
    }
}

/// What the main-actor hop observes; main-actor isolated, so background code reaches it only
/// through the hop.
@MainActor
private final class MainLoopRecord {
    private(set) var runs = 0
    private(set) var ranInsideLoop: Bool?

    func note() {
        runs += 1
        ranInsideLoop = g_main_depth() > 0
    }
}

/// Which steps ran, and how many off the main thread; written from wherever the executor runs work.
private final class ExecutionRecord: Sendable {
    private let state = Mutex<(steps: [Int], offMainThread: Int)>(([], 0))

    var steps: [Int] { state.withLock { $0.steps } }
    var offMainThread: Int { state.withLock { $0.offMainThread } }

    func append(_ step: Int, onMainThread: Bool) {
        state.withLock {
            $0.steps.append(step)
            if !onMainThread { $0.offMainThread += 1 }
        }
    }
}
