import Foundation
import StreamKit

/// A Flashforge printer's HTTP API on port 8898 (../shared/PROTOCOLS.md §13; Parallel-7/flashforge-api-docs
/// http-api and endpoints_5m_3.2.7.yaml; GhostTypes/ff-5mp-api): every request a POST of
/// `{"serialNumber","checkCode"}` (and a command's `payload`), every answer `{"code","message",…}`
/// with code 0 for success, 1001 for a wrong serial number or check code, 2 while the printer is busy.
/// The check code travels in the body only, so it is scrubbed from every failure's text.
struct FlashforgeAPI: Sendable {
    let baseURL: URL
    let serial: String
    let checkCode: String

    /// The answer code a wrong serial number or check code gets.
    static let rejectedCode = 1001
    /// The answer code of a printer too busy to take the command.
    static let busyCode = 2

    /// The printer's answer to a POST to `path` (`/detail`, `/control`) with `payload`, when its code is 0.
    func answer(_ path: String, payload: [String: Any]? = nil, stop: StopSignal?) throws(StatusFailure) -> [String: Any] {
        let object = try post(path, payload: payload, stop: stop)
        switch PrinterNumber.int(object["code"], in: PrinterNumber.code) {
        case 0?: return object
        case Self.rejectedCode?: throw Self.rejected
        case let code?: throw .protocolError(String(format: tr("the printer answered with code %ld"), code))
        case nil: throw .protocolError(tr("an answer without a code"))
        }
    }

    /// Sends a `/control` command on a thread of its own and hands `answer` the outcome: code 0 done,
    /// 2 refused as busy, 1001 a rejected check code, another code a refusal naming it.
    func control(_ payload: [String: Any], answer: @escaping @Sendable (CommandOutcome) -> Void) {
        Thread.detachNewThread { [self] in
            do throws(StatusFailure) {
                let object = try post("/control", payload: payload, stop: nil)
                switch PrinterNumber.int(object["code"], in: PrinterNumber.code) {
                case 0?: answer(.done)
                case Self.rejectedCode?: answer(.failed(Self.rejected))
                case Self.busyCode?: answer(.refused(tr("the Flashforge printer is busy — try again when it has finished what it is doing")))
                case let code?: answer(.refused(String(format: tr("the Flashforge printer answered with code %ld"), code)))
                case nil: answer(.failed(.protocolError(tr("an answer without a code"))))
                }
            } catch {
                answer(.failed(error))
            }
        }
    }

    /// A wrong serial number or check code, in the printer's own words.
    static let rejected = StatusFailure.credentialsRejected(
        status: tr("Status: the printer refused the serial number or check code — check both on the printer's screen (Settings → About, and Settings → Network with LAN-only mode on)."),
        field: tr("The printer refused the serial number or check code — check both on the printer's screen."))

    private func post(_ path: String, payload: [String: Any]?, stop: StopSignal?) throws(StatusFailure) -> [String: Any] {
        var body: [String: Any] = ["serialNumber": serial, "checkCode": checkCode]
        if let payload { body["payload"] = payload }
        guard let url = URL(string: path, relativeTo: baseURL)?.absoluteURL,
              let json = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]) else {
            throw .protocolError("bad path")
        }
        let data: Data
        do {
            data = try HTTPFetch.get(url, secrets: [checkCode], timeout: HTTPStatusAPI.timeout, json: json, stop: stop)
        } catch {
            throw StatusFailure(error.failure)
        }
        return try JSONValue.object(data)
    }
}
