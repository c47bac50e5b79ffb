import CGtk
import Foundation
import GtkKit
import TestSupport
import XCTest

/// XCTest on Linux cannot call main-actor test methods, so each test asserts the isolation it
/// already has (tests run on the main thread) with MainActor.assumeIsolated.
final class CoalescingIdleTests: XCTestCase {
    override func setUp() {
        GtkTestEnvironment.prepare()
    }

    func testAThousandSchedulesFromABackgroundThreadRunTheHandlerOnce() {
        MainActor.assumeIsolated {
            let runs = RunCounter()
            let idle = CoalescingIdle { runs.count += 1 }

            let producerDone = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                for _ in 0..<1000 { idle.schedule() }
                producerDone.signal()
            }
            producerDone.wait()
            XCTAssertEqual(runs.count, 0, "nothing may run before the main loop does")

            XCTAssertTrue(iterateMainContext { runs.count > 0 })
            dispatchReadySources()
            XCTAssertEqual(runs.count, 1)
        }
    }

    func testScheduleAfterARunQueuesAnotherRun() {
        MainActor.assumeIsolated {
            let runs = RunCounter()
            let idle = CoalescingIdle { runs.count += 1 }

            idle.schedule()
            XCTAssertTrue(iterateMainContext { runs.count == 1 })
            idle.schedule()
            idle.schedule()
            XCTAssertTrue(iterateMainContext { runs.count == 2 })
            dispatchReadySources()
            XCTAssertEqual(runs.count, 2)
        }
    }

    func testScheduleFromInsideTheHandlerIsNotLost() {
        MainActor.assumeIsolated {
            let runs = RunCounter()
            let holder = IdleHolder()
            let idle = CoalescingIdle {
                runs.count += 1
                if runs.count == 1 { holder.idle?.schedule() }
            }
            holder.idle = idle

            idle.schedule()

            XCTAssertTrue(iterateMainContext { runs.count == 2 })
            dispatchReadySources()
            XCTAssertEqual(runs.count, 2)
        }
    }
}

/// Dispatches whatever is ready now without waiting for anything new, bounded so a busy context
/// cannot hang the test.
@MainActor
private func dispatchReadySources() {
    var iterations = 0
    while iterations < 100, g_main_context_iteration(nil, 0) != 0 {
        iterations += 1
    }
}

@MainActor
private final class RunCounter {
    var count = 0
}

/// Lets a handler reach its own idle without a retain cycle.
@MainActor
private final class IdleHolder {
    weak var idle: CoalescingIdle?
}
