import Foundation
import PrinterKit
import StreamKit

/// What `layerwatch discover` prints: the printers found as a table or a JSON array, and why a
/// port could not be listened on or an ask sent, in words.
enum DiscoveryReportFormatter {
    /// A table: family, name, model, address and identifier, a column each; or a sentence when none answered.
    static func text(_ printers: [DiscoveredPrinter], seconds: Int) -> String {
        guard !printers.isEmpty else {
            return String(format: trPlural("No printer answered or announced itself within %ld second.",
                                           "No printer answered or announced itself within %ld seconds.", seconds), seconds)
        }
        return TextTable.text(header: [tr("FAMILY"), tr("NAME"), tr("MODEL"), tr("ADDRESS"), tr("ID")],
                              rows: printers.map { [$0.familyTitle, $0.name ?? "–", $0.modelName ?? "–", $0.address, $0.identifier] })
    }

    /// An array of objects: `family` (its id), `familyName`, `name`, `model`, `address`, `id`;
    /// a missing name or model is left out.
    static func json(_ printers: [DiscoveredPrinter]) -> String {
        TextTable.json(printers.map { printer in
            var object: [String: Any] = ["family": printer.family, "familyName": printer.familyTitle,
                                         "address": printer.address, "id": printer.identifier]
            object["name"] = printer.name
            object["model"] = printer.modelName
            return object
        })
    }

    /// Why a port could not be listened on or an ask sent, and whose printers are missed for it.
    static func text(_ failure: PrinterDiscovery.BindFailure) -> String {
        let families = SpokenList.all(failure.familyTitles)
        if let address = failure.askedAddress {
            switch failure.code {
            case ENETUNREACH, EHOSTUNREACH, ENETDOWN, EADDRNOTAVAIL, ENODEV:
                return String(format: tr("Cannot ask %@ printers at %@: this computer has no network there."), families, address)
            case EACCES, EPERM:
                return String(format: tr("Cannot ask %@ printers at %@: this computer does not allow it (a firewall?)."), families, address)
            default:
                return String(format: tr("Cannot ask %@ printers at %@: the system refused to send."), families, address)
            }
        }
        switch failure.code {
        case EADDRINUSE:
            return String(format: tr("Another program holds UDP port %ld: %@ printers announcing themselves there are not heard."),
                          Int(failure.port), families)
        case EACCES, EPERM:
            return String(format: tr("Not allowed to listen on UDP port %ld: %@ printers announcing themselves there are not heard."),
                          Int(failure.port), families)
        default:
            return String(format: tr("Cannot listen on UDP port %ld (no network?): %@ printers announcing themselves there are not heard."),
                          Int(failure.port), families)
        }
    }
}
