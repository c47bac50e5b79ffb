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
            XCTAssertTrue(host.isDismantled)
            XCTAssertNil(host.widget)
            XCTAssertTrue(watch.isDisposed, "the host should drop its reference when it dismantles")
        }
    }

    func testHostWhoseWindowIsDestroyedDismantlesExactlyOnce() {
        MainActor.assumeIsolated {
            let log = LifecycleLog()
            let host = RepresentableHost(id: 1, RecordingLabel(text: "live", log: log))
            let window = gtk_window_new()!
            let windowWatch = DisposalWatch(window)
            let labelWatch = DisposalWatch(host.widget!)
            gtk_window_set_child(gcast(window), host.widget)
            host.dismantleOnDestroy(of: window)
            gtk_window_present(gcast(window))
            XCTAssertTrue(iterateMainContext { gtk_widget_get_mapped(host.widget) != 0 })

            gtk_window_destroy(gcast(window))
            XCTAssertTrue(iterateMainContext { host.isDismantled })
            host.dismantle()

            XCTAssertEqual(log.events.filter { $0 == "dismantle" }.count, 1)
            XCTAssertTrue(windowWatch.isDisposed)
            XCTAssertTrue(labelWatch.isDisposed)
        }
    }

    func testHostBoundToAWindowLivesExactlyAsLongAsTheWindow() {
        MainActor.assumeIsolated {
            let log = LifecycleLog()
            let window = gtk_window_new()!
            weak var weakHost: RepresentableHost<Int, RecordingLabel>?
            do {
                let host = RepresentableHost(id: 2, RecordingLabel(text: "owned by window", log: log))
                gtk_window_set_child(gcast(window), host.widget)
                host.dismantleOnDestroy(of: window)
                weakHost = host
            }
            XCTAssertNotNil(weakHost, "the window's destroy handler should keep the host alive")

            gtk_window_destroy(gcast(window))

            XCTAssertTrue(iterateMainContext { weakHost == nil })
            XCTAssertEqual(log.events.last, "dismantle")
        }
    }

    func testExplicitDismantleDisconnectsFromTheOwner() {
        MainActor.assumeIsolated {
            let log = LifecycleLog()
            let window = gtk_window_new()!
            var host = RepresentableHost(id: 3, RecordingLabel(text: "removed early", log: log))
            host.dismantleOnDestroy(of: window)

            host.dismantle()
            gtk_window_destroy(gcast(window))

            XCTAssertEqual(log.events.filter { $0 == "dismantle" }.count, 1)
            XCTAssertTrue(isKnownUniquelyReferenced(&host), "the owner's handler should have let go of the host")
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
