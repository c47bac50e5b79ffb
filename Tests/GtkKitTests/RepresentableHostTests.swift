import CGtk
import GtkKit
import TestSupport
import XCTest

/// XCTest on Linux cannot call main-actor test methods, so each test asserts the isolation it
/// already has (tests run on the main thread) with MainActor.assumeIsolated.
final class RepresentableHostTests: XCTestCase {
    override func setUp() {
        GtkTestEnvironment.prepare()
    }

    func testHostMakesOnceUpdatesOnEveryChangeAndDismantlesOnceWhenRemovedTwice() {
        MainActor.assumeIsolated {
            let log = LifecycleLog()
            let host = RepresentableHost(id: "printer-1", RecordingLabel(text: "state 0", log: log))
            let label = host.widget!
            let watch = DisposalWatch(label)

            for state in 1...5 {
                host.update(RecordingLabel(text: "state \(state)", log: log))
            }
            XCTAssertEqual(String(cString: gtk_label_get_text(gcast(label))), "state 5")
            XCTAssertEqual(host.id, "printer-1")

            host.dismantle()
            host.dismantle()
            host.update(RecordingLabel(text: "after removal", log: log))

            XCTAssertEqual(log.events, ["makeCoordinator", "makeWidget"]
                + Array(repeating: "update", count: 6) + ["dismantle"])
            XCTAssertEqual(host.updateCount, 6, "the host counts what the representable saw")
            XCTAssertEqual(host.dismantleCount, 1)
            XCTAssertTrue(host.isDismantled)
            XCTAssertNil(host.widget)
            XCTAssertTrue(watch.isDisposed, "the host should drop its reference when it dismantles")
        }
    }

    func testRepresentableWithoutCoordinatorGetsUpdates() {
        MainActor.assumeIsolated {
            let host = RepresentableHost(id: "plain", PlainLabel(text: "one"))
            host.update(PlainLabel(text: "two"))

            XCTAssertEqual(String(cString: gtk_label_get_text(gcast(host.widget!))), "two")
            host.dismantle()
        }
    }
}

/// The lifecycle calls a host made, in order.
@MainActor
private final class LifecycleLog {
    var events: [String] = []
}

/// A label that logs each lifecycle call; its coordinator carries the log into the static dismantle.
private struct RecordingLabel: WidgetRepresentable {
    final class Coordinator {
        let log: LifecycleLog
        init(log: LifecycleLog) { self.log = log }
    }

    let text: String
    let log: LifecycleLog

    func makeCoordinator() -> Coordinator {
        log.events.append("makeCoordinator")
        return Coordinator(log: log)
    }

    func makeWidget(context: RepresentableContext<RecordingLabel>) -> OpaquePointer {
        context.coordinator.log.events.append("makeWidget")
        return gcast(gtk_label_new(nil))
    }

    func updateWidget(_ widget: OpaquePointer, context: RepresentableContext<RecordingLabel>) {
        context.coordinator.log.events.append("update")
        gtk_label_set_text(widget, text)
    }

    static func dismantleWidget(_ widget: OpaquePointer, coordinator: Coordinator) {
        coordinator.log.events.append("dismantle")
    }
}

/// A representable using the default `Void` coordinator.
private struct PlainLabel: WidgetRepresentable {
    let text: String

    func makeWidget(context: RepresentableContext<PlainLabel>) -> UnsafeMutablePointer<GtkWidget> {
        gtk_label_new(nil)
    }

    func updateWidget(_ widget: UnsafeMutablePointer<GtkWidget>, context: RepresentableContext<PlainLabel>) {
        gtk_label_set_text(gcast(widget), text)
    }

    static func dismantleWidget(_ widget: UnsafeMutablePointer<GtkWidget>, coordinator: Void) {}
}
