import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import XCTest

/// The feature table against a fake `FeatureContext`, without a window: each feature's action calls
/// its command with its argument, the string actions pass their target, and every enabled-check and
/// toggle state follows the context.
extension FeatureTableTests {
    private static let camera = Camera(name: "Bench", source: .file(path: "/dev/null", loop: false))
    private static let printer = Printer(name: "Voron", kind: .klipper, host: "voron.local", notifies: false)

    func testEveryFeatureCallsItsCommandWithItsArgument() throws {
        let video = "/tmp/Voron timelapse.mp4"
        let listed: [String: (target: String?, calls: [String])] = [
            "show-tab": (nil, ["showTab(\(Self.camera.id))"]),
            "fullscreen": (nil, ["toggleFullscreen"]),
            "leave-fullscreen": (nil, ["setFullscreen(false)"]),
            "pop-out": (nil, ["togglePopOut(\(Self.camera.id))"]),
            "add-printer": (nil, ["showDialog(editing: nil)"]),
            "edit-printer": (nil, ["editSelectedPrinter"]),
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
            "pause-print": (nil, ["sendPrintCommand(pause)"]),
            "resume-print": (nil, ["sendPrintCommand(resume)"]),
            "stop-print": (nil, ["sendPrintCommand(stop)"]),
            "print-speed": ("sport", ["sendPrintCommand(speed sport)"]),
        ]
        let cameras: [(String, (target: String?, calls: [String]))] = (1...9).map { ("show-camera-\($0)", (nil, ["showCamera(at: \($0 - 1))"])) }
        let expected = listed.merging(cameras) { first, _ in first }
        MainActor.assumeIsolated {
            XCTAssertEqual(Set(Self.contextFeatures.map(\.name)), Set(expected.keys), "every feature is tried")
            for feature in Feature.all {
                guard let (target, calls) = expected[feature.name] else { continue }
                let context = FakeFeatureContext()
                context.selectedCamera = Self.camera
                Self.activate(feature, target: target, on: context)
                XCTAssertEqual(context.calls, calls, feature.name)
            }
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
                                 "show-printer", "open-file", "show-in-files", "open-link", "farm-view"]
            XCTAssertEqual(enabled(), expected, "nothing selected: no camera's features")

            context.selectedCamera = Self.camera
            expected.formUnion(["show-tab", "pop-out", "close-tab"])
            XCTAssertEqual(enabled(), expected, "a camera selected")

            context.selectedPrinter = Printer(name: "Generic", kind: .generic, cameras: [PrinterCamera(url: "rtsp://printer/live")])
            expected.insert("edit-printer")
            XCTAssertEqual(enabled(), expected)

            context.hasSavedPrinters = true
            expected.insert("export-go2rtc")
            XCTAssertEqual(enabled(), expected)
            context.isFullscreen = true
            expected.insert("leave-fullscreen")
            XCTAssertEqual(enabled(), expected)
            context.isFarmShown = true
            expected.insert("attention-first")
            XCTAssertEqual(enabled(), expected)
            context.targetPrinterCameras = [Self.camera, Self.camera]
            expected.formUnion(["show-camera-1", "show-camera-2"])
            XCTAssertEqual(enabled(), expected, "a printer with two cameras: the first two, not one alone")
            context.targetPrinterCameras = Array(repeating: Self.camera, count: 9)
            expected.formUnion((3...9).map { "show-camera-\($0)" })
            XCTAssertEqual(enabled(), expected)
            context.printControls = ["pause": .locked("Developer Mode"), "stop": .available]
            expected.insert("stop-print")
            XCTAssertEqual(enabled(), expected, "a locked control is not enabled")
            context.printControls = ["pause": .available, "resume": .available, "stop": .available, "speed standard": .available]
            expected.formUnion(["pause-print", "resume-print", "print-speed"])
            XCTAssertEqual(enabled(), expected)
            XCTAssertEqual(enabled(), Set(Self.contextFeatures.map(\.name)), "every feature applies somewhere")
        }
    }

    /// A printer watched without a picture: its tab can be shown and closed, its print controlled;
    /// the camera's features are off, stats and fullscreen too.
    func testAPrinterWithoutACameraHasNoCameraFeatures() {
        MainActor.assumeIsolated {
            let context = FakeFeatureContext()
            context.cameralessPrinter = UUID()
            context.printControls = ["pause": .available]
            let enabled = Set(Self.contextFeatures.filter { $0.isEnabled(context) }.map(\.name))
            XCTAssertEqual(enabled, ["show-tab", "close-tab", "pause-print", "add-printer", "show-demo", "show-help-overlay", "preferences",
                                     "about", "quit", "show-printer", "open-file", "show-in-files", "open-link", "farm-view"])
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
            context.selectedPrinter = Printer(name: "Voron", kind: .klipper, host: "voron.local", notifies: true)
            context.isFarmShown = true
            context.attentionFirst = true
            XCTAssertEqual(on(), ["farm-view", "attention-first"])
            let speed = Feature.all.first { $0.name == "print-speed" }
            XCTAssertEqual(speed?.choiceState?(context), "", "no speed reported: no item marked")
            context.printSpeed = .sport
            XCTAssertEqual(speed?.choiceState?(context), "sport", "the speed the printer reports")
        }
    }

    /// The features acting through the context: all but a picture's (`CameraActions`, tried on real pictures by ZoomTests,
    /// ReconnectTests, PictureCaptureTests and StatsOverlayTests).
    @MainActor private static var contextFeatures: [Feature] { Feature.all.filter { $0.scope != .camera } }

    /// Activates `feature`'s action, installed on an action group for `context`, as a button, a key
    /// or a notification would (a toggle from off, so it turns on).
    @MainActor
    private static func activate(_ feature: Feature, target: String?, on context: FeatureContext) {
        let group = GObjectRef(adopting: g_simple_action_group_new()!)
        guard feature.install(on: group.pointer, for: context) != nil else { return }
        g_action_group_activate_action(gcast(group.pointer), feature.name, target.map { g_variant_new_string($0) })
    }
}
