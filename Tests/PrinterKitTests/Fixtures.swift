import Foundation
import PrinterKit

/// Printers of every kind and a config using them, shared by the persistence tests.
enum Fixtures {
    static let x1c = Printer(name: "X1C workshop", kind: .bambuRTSPS(.x1c), host: "192.168.1.20",
                             serial: "00M09A350100123", accessCode: "12345678")
    static let p1s = Printer(name: "P1S garage", kind: .bambuJPEG(.p1s), host: "printer-p1s.lan",
                             accessCode: "abcdEF12")
    static let webcam = Printer(name: "Octo cam", kind: .generic, cameras: [PrinterCamera(url: "http://192.168.1.40:8080/?action=stream")])

    static let config = AppConfig(
        printers: [p1s, webcam, x1c],
        selectedPrinterID: webcam.id,
        window: .init(width: 1400, height: 900, maximized: true),
        miniWindows: [.init(printerID: x1c.id, cameraID: x1c.cameras[0].id, width: 480, height: 270),
                      .init(printerID: p1s.id, cameraID: nil, width: 640, height: 360)],
        closedTabs: [webcam.id, x1c.id]
    )
}

extension Result where Success == [Printer], Failure == PrinterDraft.Problems {
    /// The message for each wrong field of a draft that made no printer (the families' form checks).
    var failureMessages: [PrinterDraft.Field: String] {
        if case .failure(let problems) = self { return problems.messages }
        return [:]
    }
}
