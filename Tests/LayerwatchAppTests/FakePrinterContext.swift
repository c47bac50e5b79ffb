import CameraKit
import Foundation
@testable import LayerwatchApp
import StatusKit

/// A `PrinterContext` in whatever state a test sets, recording every command called with its
/// argument ("send(pause)").
@MainActor
final class FakePrinterContext: PrinterContext {
    var printControls: [String: PrintControlAvailability] = [:]
    var endpoint: StatusEndpoint?
    var speed: PrintSpeed?
    var cameras: [Camera] = []
    var camera: Camera?
    var isSaved = false
    private(set) var calls: [String] = []

    func printControl(_ command: PrintCommand) -> PrintControlAvailability { printControls[command.name] ?? .hidden }
    func send(_ command: PrintCommand) { calls.append("send(\(command.name))") }
    func showCamera(at index: Int) { calls.append("showCamera(at: \(index))") }
    func togglePopOut() { calls.append("togglePopOut") }
    func edit() { calls.append("edit") }
    func choosePrintFile() { calls.append("choosePrintFile") }
    func confirmPrint(_ file: URL) { calls.append("confirmPrint(\(file.lastPathComponent))") }
}
