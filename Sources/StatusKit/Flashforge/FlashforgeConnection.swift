import Foundation
import StreamKit

/// A Flashforge printer's status through its HTTP API (`FlashforgeAPI`): `/detail` every
/// `HTTPStatusAPI.pollInterval`, as FlashForge's own clients poll it (GhostTypes/ff-5mp-api). Pause,
/// resume and cancel are `/control`'s `jobCtl_cmd` with `action` pause, continue or cancel; the
/// light is `lightControl_cmd` with `status` open or close (endpoints_5m_3.2.7.yaml `JobCtlCmd`,
/// `LightControlCmd`). The printer answers each with a code, which is the command's outcome.
final class FlashforgeConnection: StatusConnection, @unchecked Sendable {
    private let api: FlashforgeAPI

    init(api: FlashforgeAPI) {
        self.api = api
    }

    func run(stop: StopSignal, live: () -> Void, report: (PrinterStatus) -> Void) throws(StatusFailure) {
        var isLive = false
        while !stop.isStopped {
            let answer: [String: Any]
            do {
                answer = try api.answer("/detail", stop: stop)
            } catch {
                if stop.isStopped { return }
                throw error
            }
            guard let detail = answer["detail"] as? [String: Any] else { throw .protocolError(tr("an answer without the printer's details")) }
            if !isLive {
                isLive = true
                live()
            }
            report(FlashforgeReport(detail: detail).status)
            stop.wait(seconds: HTTPStatusAPI.pollInterval)
        }
    }

    func setChamberLight(_ on: Bool) {
        api.control(["cmd": "lightControl_cmd", "args": ["status": on ? "open" : "close"]]) { _ in }
    }

    func send(_ command: PrintCommand, answer: @escaping @Sendable (CommandOutcome) -> Void) {
        let action: String
        switch command {
        case .pause: action = "pause"
        case .resume: action = "continue"
        case .stop: action = "cancel"
        case .speed: return answer(.refused(tr("Flashforge printers have no speed profiles")))
        case .printFile: return answer(.refused(PrintCommandText.startsWhenSent))
        }
        api.control(["cmd": "jobCtl_cmd", "args": ["jobID": "", "action": action]], answer: answer)
    }

    /// The stop signal already interrupts its requests and its wait between polls.
    func interrupt() {}
}
