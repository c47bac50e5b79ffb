import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import XCTest

/// The feature table against a fake `FeatureContext` and a fake `PrinterContext`, without a window:
/// each feature's action calls its command with its argument, the string actions pass their target,
/// and every enabled-check and toggle state follows the context (a printer's features, the printer).
extension FeatureTableTests {
    private static let camera = Camera(name: "Bench", source: .file(path: "/dev/null", loop: false))
    private static let printer = Printer(name: "Voron", kind: .klipper, host: "voron.local", notifies: false)

    func testEveryFeatureCallsItsCommandWithItsArgument() throws {
        let video = "/tmp/Voron timelapse.mp4"
        let listed: [String: (target: String?, calls: [String])] = [
            "show-tab": (nil, ["showTab(\(Self.camera.id))"]),
            "fullscreen": (nil, ["toggleFullscreen"]),
            "leave-fullscreen": (nil, ["setFullscreen(false)"]),
            "add-printer": (nil, ["showDialog(editing: nil)"]),
            "show-demo": (nil, ["showDemo"]),
            "export-go2rtc": (nil, ["chooseGo2RTCExport"]),
            "close-tab": (nil, ["closeSelectedTab"]),
            "show-help-overlay": (nil, []),
            "about": (nil, ["showAbout"]),
            "preferences": (nil, ["showPreferences"]),
            "quit": (nil, ["quit"]),
            "show-printer": (Self.printer.id.uuidString, ["showPrinter(\(Self.printer.id))"]),
            "open-file": (video, ["openFile(\(video))"]),
            "show-in-files": (video, ["showInFiles(\(video))"]),
            "open-link": ("https://wiki.bambulab.com/en/hms/error-code", ["openLink(https://wiki.bambulab.com/en/hms/error-code)"]),
            "farm-view": (nil, ["showFarm(true)"]),
            "attention-first": (nil, ["setAttentionFirst(true)"]),
            "show-history": (nil, ["showHistory(true)"]),
            "search-history": (nil, ["searchHistory"]),
            "select-printers": (nil, ["setFarmSelecting(true)"]),
        ]
        let expected = listed
        MainActor.assumeIsolated {
            XCTAssertEqual(Set(Self.contextFeatures.map(\.name)), Set(expected.keys).union(["show-history-since"]), "every feature is tried")
            for feature in Feature.all {
                guard let (target, calls) = expected[feature.name] else { continue }
                let context = FakeFeatureContext()
                context.selectedCamera = Self.camera
                Self.activate(feature, target: target, on: context)
                XCTAssertEqual(context.calls, calls, feature.name)
            }
        }
    }

    /// `win.show-history-since` takes its time as GVariant "x" (seconds since 1970), as the away
    /// banner activates it, and hands it on as that moment.
    func testShowHistorySinceTakesSecondsSince1970() throws {
        MainActor.assumeIsolated {
            let feature = Feature.all.first { $0.name == "show-history-since" }!
            XCTAssertEqual(feature.actionName, "win.show-history-since")
            let context = FakeFeatureContext()
            let group = GObjectRef(adopting: g_simple_action_group_new()!)
            XCTAssertNotNil(feature.install(on: group.pointer, for: context))
            let action = g_action_map_lookup_action(gcast(group.pointer), feature.name)
            XCTAssertEqual(String(cString: g_variant_type_peek_string(g_action_get_parameter_type(action))).prefix(1), "x")
            g_action_group_activate_action(gcast(group.pointer), feature.name, g_variant_new_int64(1_796_000_700))
            XCTAssertEqual(context.calls, ["showHistory(since: 1796000700)"])
        }
    }

    /// A printer's feature calls the printer whose group it is in (`PrinterContext`), never the
    /// application's context.
    func testEveryPrinterFeatureCallsItsPrinter() {
        let listed: [String: (target: String?, calls: [String])] = [
            "pop-out": (nil, ["togglePopOut"]),
            "edit-printer": (nil, ["edit"]),
            "pause-print": (nil, ["send(pause)"]),
            "resume-print": (nil, ["send(resume)"]),
            "stop-print": (nil, ["send(stop)"]),
            "print-speed": ("sport", ["send(speed sport)"]),
            "print-file": (nil, ["choosePrintFile"]),
            "print-dropped-file": ("/tmp/Voron bracket.gcode", ["confirmPrint(Voron bracket.gcode)"]),
        ]
        let cameras: [(String, (target: String?, calls: [String]))] = (1...9).map { ("show-camera-\($0)", (nil, ["showCamera(at: \($0 - 1))"])) }
        let expected = listed.merging(cameras) { first, _ in first }
        MainActor.assumeIsolated {
            XCTAssertEqual(Set(Self.printerFeatures.map(\.name)), Set(expected.keys), "every printer's feature is tried")
            for feature in Self.printerFeatures {
                guard let (target, calls) = expected[feature.name] else { continue }
                let printer = FakePrinterContext()
                let group = GObjectRef(adopting: g_simple_action_group_new()!)
                XCTAssertNotNil(feature.install(on: group.pointer, acting: printer), feature.name)
                XCTAssertNil(feature.install(on: group.pointer, for: FakeFeatureContext()), "\(feature.name) acts only on a printer")
                g_action_group_activate_action(gcast(group.pointer), feature.name, target.map { g_variant_new_string($0) })
                XCTAssertEqual(printer.calls, calls, feature.name)
            }
        }
    }

    func testPrinterFeaturesApplyAsThePrinterSays() {
        MainActor.assumeIsolated {
            let printer = FakePrinterContext()
            @MainActor func applying() -> Set<String> { Set(Self.printerFeatures.filter { $0.applies(printer) }.map(\.name)) }
            XCTAssertEqual(applying(), [], "a printer without a camera, a print or a saved entry")
            printer.camera = Self.camera
            XCTAssertEqual(applying(), ["pop-out"])
            printer.isSaved = true
            XCTAssertEqual(applying(), ["pop-out", "edit-printer"])
            printer.cameras = [Self.camera, Self.camera]
            XCTAssertEqual(applying(), ["pop-out", "edit-printer", "show-camera-1", "show-camera-2"], "two cameras: the first two, not one alone")
            printer.cameras = Array(repeating: Self.camera, count: 9)
            var expected = Set(["pop-out", "edit-printer"] + (1...9).map { "show-camera-\($0)" })
            XCTAssertEqual(applying(), expected)
            printer.printControls = ["pause": .locked("Developer Mode"), "stop": .available]
            expected.insert("stop-print")
            XCTAssertEqual(applying(), expected, "a locked control does not apply")
            let pause = Self.printerFeatures.first { $0.name == "pause-print" }!
            XCTAssertTrue(pause.isShown(for: printer), "a locked control shows, greyed")
            XCTAssertEqual(pause.lockedReason?(printer), "Developer Mode")
            printer.printControls = ["pause": .available, "resume": .available, "stop": .available, "speed standard": .available]
            expected.formUnion(["pause-print", "resume-print", "print-speed"])
            XCTAssertEqual(applying(), expected)
            printer.endpoint = .demo
            expected.formUnion(["print-file", "print-dropped-file"])
            XCTAssertEqual(applying(), expected, "Print File wants a status connection")
            XCTAssertEqual(applying(), Set(Self.printerFeatures.map(\.name)), "every printer's feature applies somewhere")
        }
    }

    func testStringActionsAreApplicationActionsTakingTheirTarget() {
        MainActor.assumeIsolated {
            let textFeatures = Feature.all.filter { if case .textCommand = $0.handler { true } else { false } }
            XCTAssertEqual(textFeatures.map(\.actionName), ["app." + PrintNotifier.showPrinterAction, "app.open-file", "app.show-in-files",
                                                         "app." + PrintNotifier.openLinkAction])
            let context = FakeFeatureContext()
            for feature in textFeatures { Self.activate(feature, target: "/tmp/not a printer id", on: context) }
            XCTAssertEqual(context.calls, ["openFile(/tmp/not a printer id)", "showInFiles(/tmp/not a printer id)",
                                           "openLink(/tmp/not a printer id)"],
                           "a target that is no printer id shows no printer")
        }
    }

    func testFeaturesAreEnabledAsTheContextSays() {
        MainActor.assumeIsolated {
            let context = FakeFeatureContext()
            @MainActor func enabled() -> Set<String> { Set(Self.contextFeatures.filter { $0.isEnabled(context) }.map(\.name)) }
            var expected: Set = ["fullscreen", "add-printer", "show-demo", "show-help-overlay", "preferences", "about", "quit",
                                 "show-printer", "open-file", "show-in-files", "open-link", "farm-view", "show-history", "show-history-since"]
            XCTAssertEqual(enabled(), expected, "nothing selected: no camera's features")

            context.selectedCamera = Self.camera
            expected.formUnion(["show-tab", "close-tab"])
            XCTAssertEqual(enabled(), expected, "a camera selected")

            context.hasSavedPrinters = true
            expected.insert("export-go2rtc")
            XCTAssertEqual(enabled(), expected)
            context.isFullscreen = true
            expected.insert("leave-fullscreen")
            XCTAssertEqual(enabled(), expected)
            context.isFarmShown = true
            expected.formUnion(["attention-first", "select-printers"])
            XCTAssertEqual(enabled(), expected)
            context.isHistoryShown = true
            expected.insert("search-history")
            XCTAssertEqual(enabled(), expected, "Ctrl+F searches the History page while it shows")
            XCTAssertEqual(enabled(), Set(Self.contextFeatures.map(\.name)), "every feature applies somewhere")
        }
    }

    /// A printer watched without a picture: its tab can be shown and closed, its print controlled;
    /// the camera's features are off, stats, fullscreen and pop-out too.
    func testAPrinterWithoutACameraHasNoCameraFeatures() {
        MainActor.assumeIsolated {
            let context = FakeFeatureContext()
            context.cameralessPrinter = UUID()
            let enabled = Set(Self.contextFeatures.filter { $0.isEnabled(context) }.map(\.name))
            XCTAssertEqual(enabled, ["show-tab", "close-tab", "add-printer", "show-demo", "show-help-overlay", "preferences",
                                     "about", "quit", "show-printer", "open-file", "show-in-files", "open-link", "farm-view",
                                     "show-history", "show-history-since"])
            let printer = FakePrinterContext()
            printer.printControls = ["pause": .available]
            XCTAssertEqual(Set(Self.printerFeatures.filter { $0.applies(printer) }.map(\.name)), ["pause-print"])
            let showTab = Feature.all.first { $0.name == "show-tab" }!
            Self.activate(showTab, target: nil, on: context)
            XCTAssertEqual(context.calls, ["showTab(\(context.cameralessPrinter!))"])
        }
    }

    func testTogglesShowTheContextsValues() {
        MainActor.assumeIsolated {
            let context = FakeFeatureContext()
            @MainActor func on() -> Set<String> { Set(Feature.all.filter { $0.state?(context) == true }.map(\.name)) }
            XCTAssertEqual(on(), [])
            context.isFarmShown = true
            context.attentionFirst = true
            XCTAssertEqual(on(), ["farm-view", "attention-first"])
            context.isHistoryShown = true
            XCTAssertEqual(on(), ["farm-view", "attention-first", "show-history"])
            context.isFarmSelecting = true
            XCTAssertEqual(on(), ["farm-view", "attention-first", "show-history", "select-printers"])
            let speed = Feature.all.first { $0.name == "print-speed" }
            let printer = FakePrinterContext()
            XCTAssertEqual(speed?.choiceState?(printer), "", "no speed reported: no item marked")
            printer.speed = .sport
            XCTAssertEqual(speed?.choiceState?(printer), "sport", "the speed the printer reports")
        }
    }

    /// The features acting through the context: all but a picture's (`CameraActions`, tried on real pictures by ZoomTests,
    /// ReconnectTests, PictureCaptureTests and StatsOverlayTests) and a printer's.
    @MainActor private static var contextFeatures: [Feature] { Feature.all.filter { $0.scope != .camera && $0.scope != .printer } }
    /// A printer's features (`PrinterActions`).
    @MainActor private static var printerFeatures: [Feature] { Feature.all.filter { $0.scope == .printer } }

    /// Activates `feature`'s action, installed on an action group for `context`, as a button, a key
    /// or a notification would (a toggle from off, so it turns on).
    @MainActor
    private static func activate(_ feature: Feature, target: String?, on context: FeatureContext) {
        let group = GObjectRef(adopting: g_simple_action_group_new()!)
        guard feature.install(on: group.pointer, for: context) != nil else { return }
        g_action_group_activate_action(gcast(group.pointer), feature.name, target.map { g_variant_new_string($0) })
    }
}
