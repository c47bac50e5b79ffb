import Foundation
import StreamKit

/// What a Flashforge printer's `/detail` answer says (Adventurer 5M, 5M Pro, AD5X; ../shared/PROTOCOLS.md
/// §13; Parallel-7/flashforge-api-docs endpoints_5m_3.2.7.yaml `Details`; GhostTypes/ff-5mp-api):
/// `status` (ready, busy, calibrate_doing, error, heating, printing, pausing, paused, cancel,
/// completed), `printFileName`, `printProgress` (0…1), `printLayer`/`targetPrintLayer`,
/// `estimatedTime` (seconds left) and `printDuration` (seconds run), `rightTemp`/`rightTargetTemp`
/// (the nozzle), `platTemp`/`platTargetTemp`, `chamberTemp`/`chamberTargetTemp` (0 on printers
/// without a chamber sensor), `lightStatus` (open/close), `errorCode` and `cameraStreamUrl` (empty
/// without a camera: an AD5X without its optional one).
struct FlashforgeReport {
    let detail: [String: Any]

    /// The most characters of an error code kept (shown in a sentence of ours).
    static let maximumCode = 32

    var status: PrinterStatus {
        let word = JSONValue.string(detail["status"])?.lowercased() ?? ""
        var status = PrinterStatus(state: Self.state(word))
        if word == "pausing" { status.transition = .pausing }
        if status.hasActiveJob || [.finished, .cancelled, .failed].contains(status.state) {
            status.job = JSONValue.string(detail["printFileName"]).flatMap { path in
                path.split(separator: "/").last.map(String.init)  // the printer names the file by its path under /data
            }
            status.progress = PrinterNumber.double(detail["printProgress"], in: PrinterNumber.fraction).map { $0 * 100 }
            status.elapsed = PrinterNumber.double(detail["printDuration"], in: PrinterNumber.seconds)
            status.layer = PrinterNumber.int(detail["printLayer"], in: PrinterNumber.layers)
            status.totalLayers = PrinterNumber.int(detail["targetPrintLayer"], in: PrinterNumber.layers).flatMap { $0 > 0 ? $0 : nil }
        }
        if status.hasActiveJob { status.timeLeft = PrinterNumber.double(detail["estimatedTime"], in: PrinterNumber.seconds) }
        status.nozzles = PrinterStatus.Temperature(reported: detail["rightTemp"], target: detail["rightTargetTemp"]).map { [$0] } ?? []
        status.bed = .init(reported: detail["platTemp"], target: detail["platTargetTemp"])
        let chamber = PrinterStatus.Temperature(reported: detail["chamberTemp"], target: detail["chamberTargetTemp"])
        status.chamber = chamber.flatMap { $0.current != 0 || ($0.target ?? 0) != 0 ? $0 : nil }
        status.chamberLight = JSONValue.string(detail["lightStatus"]).flatMap { ["open": true, "close": false][$0.lowercased()] }
        if status.state == .failed { status.errorText = errorText }
        return status
    }

    /// The camera's address (`cameraStreamUrl`, mjpg-streamer's `http://HOST:8080/?action=stream`);
    /// nil when the printer has none, or names something other than an HTTP address.
    var cameraURL: URL? {
        guard let text = JSONValue.string(detail["cameraStreamUrl"])?.trimmingCharacters(in: .whitespaces), !text.isEmpty,
              text.count <= 2048, let url = URL(string: text), url.scheme?.lowercased() == "http", url.host != nil else { return nil }
        return url
    }

    /// The printer's error in words: its `errorCode` when it gives one (letters, digits, `-` and `_` only).
    private var errorText: String {
        let code = (JSONValue.string(detail["errorCode"]) ?? "").prefix(Self.maximumCode)
        guard !code.isEmpty, code.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_".unicodeScalars.contains($0)) }) else {
            return tr("The printer reports an error — see its screen.")
        }
        return String(format: tr("Flashforge error %@ — see the printer's screen."), String(code))
    }

    /// The `status` word: heating, calibrating and busy before a print are preparing; a cancelled
    /// print (`cancel`) is cancelled, no fault; `pausing` is still printing, shown as pausing
    /// (`PrinterStatus.transition`). An unknown word reads as idle.
    static func state(_ word: String) -> PrinterStatus.State {
        switch word {
        case "printing", "pausing": return .printing
        case "paused": return .paused
        case "heating", "calibrate_doing", "busy": return .preparing
        case "completed": return .finished
        case "cancel": return .cancelled
        case "error": return .failed
        default: return .idle
        }
    }
}
