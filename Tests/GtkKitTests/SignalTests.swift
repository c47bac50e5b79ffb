import CGtk
import GtkKit
import TestSupport
import XCTest

/// XCTest on Linux cannot call main-actor test methods, so each test asserts the isolation it
/// already has (tests run on the main thread) with MainActor.assumeIsolated.
final class SignalTests: XCTestCase {
    override func setUp() {
        GtkTestEnvironment.prepare()
    }

    func testNoArgumentHandlerRunsOnEveryEmission() {
        MainActor.assumeIsolated {
            let toggle = GObjectRef(adopting: gtk_toggle_button_new()!)
            var toggles = 0
            connectSignal(toggle.pointer, "toggled") { toggles += 1 }

            gtk_toggle_button_set_active(toggle.cast(), 1)
            gtk_toggle_button_set_active(toggle.cast(), 0)

            XCTAssertEqual(toggles, 2)
        }
    }

    func testPointerArgumentHandlerReceivesTheSignalArgument() {
        MainActor.assumeIsolated {
            let label = GObjectRef(adopting: gtk_label_new("before")!)
            var notified: [String] = []
            connectSignal(label.pointer, "notify::label") { argument in
                let spec: UnsafeMutablePointer<GParamSpec> = gcast(argument!)
                notified.append(String(cString: g_param_spec_get_name(spec)))
            }

            gtk_label_set_label(label.cast(), "after")

            XCTAssertEqual(notified, ["label"])
        }
    }

    func testInt32HandlerReceivesEachResponseID() {
        MainActor.assumeIsolated {
            let dialog = GObjectRef(retaining: gtk_dialog_new()!)
            defer { gtk_window_destroy(dialog.cast()) }
            var responses: [Int32] = []
            connectInt32Signal(dialog.pointer, "response") { responses.append($0) }

            gtk_dialog_response(dialog.cast(), 42)
            gtk_dialog_response(dialog.cast(), GTK_RESPONSE_ACCEPT.rawValue)

            XCTAssertEqual(responses, [42, -3])
        }
    }

    func testBoolHandlerResultDecidesWhetherAWindowCloses() {
        MainActor.assumeIsolated {
            let window = gtk_window_new()!
            let watch = DisposalWatch(window)
            gtk_window_present(gcast(window))
            var keepOpen = true
            var requests = 0
            connectBoolSignal(window, "close-request") {
                requests += 1
                return keepOpen
            }

            gtk_window_close(gcast(window))
            XCTAssertEqual(requests, 1)
            XCTAssertFalse(watch.isDisposed)

            keepOpen = false
            gtk_window_close(gcast(window))
            XCTAssertEqual(requests, 2)
            XCTAssertTrue(iterateMainContext { watch.isDisposed })
        }
    }

    func testDisconnectingReleasesTheClosureAndSilencesTheHandler() {
        MainActor.assumeIsolated {
            let toggle = GObjectRef(adopting: gtk_toggle_button_new()!)
            var toggles = 0
            weak var weakSentinel: Sentinel?
            let handlerID: gulong = {
                let sentinel = Sentinel()
                weakSentinel = sentinel
                return connectSignal(toggle.pointer, "toggled") { withExtendedLifetime(sentinel) { toggles += 1 } }
            }()
            XCTAssertNotEqual(handlerID, 0)
            XCTAssertNotNil(weakSentinel, "GLib should hold the closure while the handler is connected")

            disconnectSignal(toggle.pointer, handlerID)
            gtk_toggle_button_set_active(toggle.cast(), 1)

            XCTAssertNil(weakSentinel)
            XCTAssertEqual(toggles, 0)
        }
    }

    func testDisposingTheObjectReleasesTheClosure() {
        MainActor.assumeIsolated {
            var toggle: GObjectRef? = GObjectRef(adopting: gtk_toggle_button_new()!)
            weak var weakSentinel: Sentinel?
            do {
                let sentinel = Sentinel()
                weakSentinel = sentinel
                connectSignal(toggle!.pointer, "toggled") { withExtendedLifetime(sentinel) {} }
            }
            XCTAssertNotNil(weakSentinel)

            toggle = nil

            XCTAssertNil(toggle)
            XCTAssertNil(weakSentinel)
        }
    }

    func testAnUnknownSignalYieldsNoHandlerAndReleasesTheClosure() {
        MainActor.assumeIsolated {
            let toggle = GObjectRef(adopting: gtk_toggle_button_new()!)
            weak var weakSentinel: Sentinel?
            var handlerID: gulong = 1
            let warnings = countingWarnings(inDomain: "GLib-GObject") {
                let sentinel = Sentinel()
                weakSentinel = sentinel
                handlerID = connectSignal(toggle.pointer, "no-such-signal") { withExtendedLifetime(sentinel) {} }
            }

            XCTAssertEqual(handlerID, 0)
            XCTAssertEqual(warnings, 1)
            XCTAssertNil(weakSentinel)
        }
    }
}

/// Runs `body` with GLib warnings of `domain` counted instead of printed.
@MainActor
private func countingWarnings(inDomain domain: String, _ body: () -> Void) -> Int {
    let count = Counter()
    let handler = g_log_set_handler(domain, G_LOG_LEVEL_WARNING, { _, _, _, data in
        Unmanaged<Counter>.fromOpaque(data!).takeUnretainedValue().value += 1
    }, Unmanaged.passUnretained(count).toOpaque())
    body()
    g_log_remove_handler(domain, handler)
    return count.value
}

private final class Counter {
    var value = 0
}
