import Foundation
import StreamKit

/// A Bambu printer's answer to a print command: the printer echoes the command on its report topic
/// with the request's `sequence_id`, `result` ("success" or "fail") and `reason`; firmware that wants
/// signed commands (Developer Mode off) adds `err_code` 84033543 (0x05024007, "mqtt message verify
/// failed": ha-bambulab issue #1250, coelacant1/Bambu-Lab-Cloud-API issue #4).
struct BambuCommandAnswer: Equatable {
    /// The `err_code` of a command refused for want of a signature.
    static let signatureRefusal = 84_033_543

    let sequenceID: String
    /// The command echoed (`print.command`): an answer is the sent command's only when both match.
    let command: String
    let outcome: CommandOutcome

    /// The answer in `payload`; nil for a status report or anything else.
    init?(payload: [String: Any]) {
        guard let print = payload["print"] as? [String: Any],
              let command = JSONValue.string(print["command"]), Self.commands.contains(command),
              let sequence = Self.sequenceID(print["sequence_id"]) else { return nil }
        sequenceID = sequence
        self.command = command
        let code = PrinterNumber.int(print["err_code"], in: PrinterNumber.code) ?? 0
        let result = JSONValue.string(print["result"])?.lowercased()
        if code == Self.signatureRefusal {
            outcome = .needsDeveloperMode
        } else if result == "success", code == 0 {
            outcome = .done
        } else if result != nil || code != 0 {
            let reason = JSONValue.string(print["reason"]).map { TerminalText.safe(String($0.prefix(200))) }
                .flatMap { $0.isEmpty ? nil : $0 }
            outcome = .refused(reason ?? (code != 0 ? String(format: tr("error code %ld"), code) : nil))
        } else {
            return nil
        }
    }

    /// The `print` commands Layerwatch sends.
    static let commands: Set<String> = ["pause", "resume", "stop", "print_speed", "project_file"]

    /// Printers echo the id as a string or a number.
    private static func sequenceID(_ value: Any?) -> String? {
        guard let text = JSONValue.string(value), !text.isEmpty, text.count <= 20 else { return nil }
        return text
    }
}
