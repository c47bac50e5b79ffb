import CameraKit
import Foundation
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import StreamKit

/// A `FeatureContext` in whatever state a test sets, recording every command called with its
/// argument ("showTab(ID)").
@MainActor
final class FakeFeatureContext: FeatureContext {
    var selectedCamera: Camera?
    /// The selected printer: the camera's, or `cameralessPrinter` (a printer watched without a picture).
    var selectedPrinterID: UUID? { selectedCamera?.printerID ?? cameralessPrinter }
    var cameralessPrinter: UUID?
    var hasSavedPrinters = false
    var isFullscreen = false
    var isFarmShown = false
    var attentionFirst = false
    var isHistoryShown = false
    var isFarmSelecting = false
    var farmChoice: [UUID] = []
    private(set) var calls: [String] = []

    func showTab(_ id: UUID) { calls.append("showTab(\(id))") }
    func toggleFullscreen() { calls.append("toggleFullscreen") }
    func setFullscreen(_ fullscreen: Bool) { calls.append("setFullscreen(\(fullscreen))") }
    func togglePopOut(_ camera: Camera) { calls.append("togglePopOut(\(camera.id))") }
    func showDialog(editing printer: Printer?) { calls.append("showDialog(editing: \(printer?.name ?? "nil"))") }
    func editAccessCode(of printer: Printer) { calls.append("editAccessCode(of: \(printer.name))") }
    func showDemo() { calls.append("showDemo") }
    func chooseGo2RTCExport() { calls.append("chooseGo2RTCExport") }
    func closeSelectedTab() { calls.append("closeSelectedTab") }
    func showAbout() { calls.append("showAbout") }
    func showPreferences() { calls.append("showPreferences") }
    func showFarm(_ shown: Bool) { calls.append("showFarm(\(shown))") }
    func setAttentionFirst(_ on: Bool) { calls.append("setAttentionFirst(\(on))") }
    func showHistory(_ shown: Bool) { calls.append("showHistory(\(shown))") }
    func showHistory(since: Date) { calls.append("showHistory(since: \(Int64(since.timeIntervalSince1970)))") }
    func searchHistory() { calls.append("searchHistory") }
    func setFarmSelecting(_ on: Bool) { calls.append("setFarmSelecting(\(on))") }
    func printTarget(of id: UUID) -> PrintTarget? { nil }
    func showPrinter(_ id: UUID) { calls.append("showPrinter(\(id))") }
    func quit() { calls.append("quit") }
    func openFile(_ file: URL) { calls.append("openFile(\(file.path))") }
    func showInFiles(_ file: URL) { calls.append("showInFiles(\(file.path))") }
    func openLink(_ url: String) { calls.append("openLink(\(url))") }
}
