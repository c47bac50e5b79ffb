import Foundation
import StreamKit

/// Sending a file to a Flashforge printer: `POST /uploadGcode` with the file in the multipart part
/// `gcodeFile` and the serial number, check code, size and `printNow: true` as headers (PROTOCOLS.md
/// §13; GhostTypes/ff-5mp-api's UploadFile, with the fields firmware 3.1.3 and later reads for the
/// AD5X's material station off). The answer is code 0, or 1001 for a wrong serial or check code.
/// Its API deletes no file: a cancelled upload leaves what arrived, never printed.
extension FlashforgeStatusFamily {
    func refusal(of kind: PrintFile.Kind) -> String? {
        kind == .binaryGCode ? tr("Flashforge printers print G-code and 3MF files, not binary G-code") : nil
    }

    func send(_ file: PrintFile, to endpoint: StatusEndpoint, plate: Int, stop: StopSignal,
              progress: @escaping @Sendable (UploadProgress) -> Void) -> UploadOutcome {
        if let refusal = refusal(of: file.kind) { return .refused(refusal) }
        let headers = [("serialNumber", endpoint.serial ?? ""), ("fileSize", String(file.size)), ("printNow", "true"),
                       ("levelingBeforePrint", "false"), ("flowCalibration", "false"), ("useMatlStation", "false"),
                       ("gcodeToolCnt", "0"), ("materialMappings", "W10=")]
        return HTTPStatusAPI(baseURL: endpoint.baseURL!, key: ("checkCode", endpoint.secret ?? ""))
            .upload(file, to: "/uploadGcode", form: .multipart(field: "gcodeFile", fields: []), extra: headers, removal: nil,
                    stop: stop, progress: progress, judge: Self.judge)
    }

    /// The printer's `{"code","message"}`: 0 started, 1001 a rejected serial or check code, another
    /// code a refusal in its words.
    private static func judge(_ reply: HTTPFetch.Answer, secrets: [String]) -> UploadOutcome {
        guard (200..<300).contains(reply.status) else { return HTTPStatusAPI.judge(reply, secrets: secrets) }
        let object = try? JSONValue.object(reply.body)
        switch PrinterNumber.int(object?["code"], in: PrinterNumber.code) {
        case 0?: return .started
        case FlashforgeAPI.rejectedCode?: return .failed(.authRejected)
        case let code?:
            let words = JSONValue.string(object?["message"]).map { TerminalText.safe(Redactor(secrets: secrets).redact(String($0.prefix(200)))) }
            return .refused(words ?? String(format: tr("the Flashforge printer answered with code %ld"), code))
        case nil: return .failed(.protocolError(tr("an answer without a code")))
        }
    }
}
