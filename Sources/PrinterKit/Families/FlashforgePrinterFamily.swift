import Foundation
import StatusKit
import StreamKit

/// The Flashforge family as a saved printer (Adventurer 5M, 5M Pro, AD5X): its status from the
/// HTTP API on its host with its serial number and check code (the check code kept in the keyring,
/// as a Bambu access code is), its camera the one `/detail` names (found by Test Connection or
/// Find Cameras, kept by URL; an AD5X without a camera is watched without a picture). Discovery
/// finds it with its serial number, so the user types only the check code.
struct FlashforgePrinterFamily: PrinterFamily {
    static let name = "flashforge"

    let kindNames = [Self.name]
    /// An AD5X has no camera unless one is fitted.
    let canGoWithoutCamera = true
    let camerasOnNetwork = true
    let secretNoun: SecretsPlace.Noun? = .checkCode
    /// The file keeps no check code, as for a Bambu access code.
    let fileSecretMark = FileSecretMark.nothing
    /// Its printers answer a datagram to 225.0.0.9:19000 with their name and serial number.
    let discovery: (any FamilyDiscovery)? = FlashforgeDiscovery()

    func displayName(of kind: Printer.Kind) -> String? { "Flashforge" }

    func statusEndpoint(of printer: Printer) -> StatusEndpoint? {
        guard !printer.host.isEmpty, !printer.accessCode.isEmpty, let serial = printer.serial, !serial.isEmpty else { return nil }
        return .flashforge(host: printer.host, port: printer.apiPort ?? StatusEndpoint.flashforgePort, serial: serial,
                           checkCode: printer.accessCode)
    }

    func formatTwoJoinKey(of printer: Printer) -> String? {
        guard let serial = printer.serial, !serial.isEmpty else { return nil }
        return "flashforge \(serial.uppercased())"
    }

    func printer(from draft: PrinterDraft, name: String, messages: inout [PrinterDraft.Field: String]) -> Printer {
        draft.flashforgePrinter(name: name, messages: &messages)
    }
}

extension Printer.Kind {
    /// A Flashforge Adventurer 5M, 5M Pro or AD5X.
    public static let flashforge = Printer.Kind(family: FlashforgePrinterFamily(), name: FlashforgePrinterFamily.name)
}

extension PrinterDraft {
    /// The Flashforge printer: its address, serial number, check code and cameras (none is fine).
    func flashforgePrinter(name: String, messages: inout [Field: String]) -> Printer {
        var host = ""
        do { host = try BambuCamera.validatedHost(self.host) } catch { messages[.host] = "\(error)" }
        let code = accessCode.trimmingCharacters(in: .whitespaces)
        if code.isEmpty {
            messages[.accessCode] = tr("Enter the check code the printer shows under Settings → Network once LAN-only mode is on.")
        } else if !code.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F }) || code.count > 64 {
            messages[.accessCode] = tr("A check code has only letters and digits: copy it again from the printer's screen.")
        }
        let serial = serial.trimmingCharacters(in: .whitespaces)
        if serial.isEmpty {
            messages[.serial] = tr("Enter the printer's serial number: it is under Settings → About on the printer's screen, and on its label.")
        } else if !serial.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) }) || serial.count > 64 {
            messages[.serial] = tr("A serial number has only letters A–Z and digits: copy it again from the printer's screen.")
        }
        let port = typedPort(usual: StatusEndpoint.flashforgePort, messages: &messages)
        return kept(Printer(id: id, name: name, kind: kind, host: host, apiPort: port == StatusEndpoint.flashforgePort ? nil : port,
                            serial: serial.isEmpty ? nil : serial, accessCode: code, cameras: checkedCameras(messages: &messages)))
    }
}
