import Foundation
import StatusKit
import StreamKit

/// The Bambu Lab family's discovery: its printers' SSDP announcements (../shared/PROTOCOLS.md §3).
/// Anything on those ports may be another vendor's SSDP or Bambu Studio's own M-SEARCH, so only a
/// Bambu printer's `NOTIFY` (or a search response) with a serial is accepted.
struct BambuDiscovery: FamilyDiscovery {
    static let deviceType = "urn:bambulab-com:device:3dprinter:1"
    static let id = "bambu"

    var id: String { Self.id }
    let title = "Bambu Lab"
    let endpoints = PrinterDiscovery.Endpoint.bambu

    /// The printer a datagram announces, at `sender`, the datagram's source address. The `Location`
    /// header is not used: any host can name any address in it, and the sender is where the
    /// announcement really came from (a real printer sends from the address it names).
    func parse(_ datagram: [UInt8], sender: String) -> DiscoveredPrinter? {
        guard String(validating: datagram, as: UTF8.self) != nil else { return nil }
        let lines = datagram.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
        }
        guard let startLine = lines.first?.trimmingCharacters(in: .whitespaces).uppercased() else { return nil }
        let headers = Self.headerFields(lines.dropFirst())
        let target: String?
        switch startLine {
        case "NOTIFY * HTTP/1.1": target = headers["nt"]
        case "HTTP/1.1 200 OK": target = headers["st"]
        default: return nil
        }
        guard target?.lowercased() == Self.deviceType, headers["nts"]?.lowercased() != "ssdp:byebye",
              let serial = headers["usn"], BambuSerial.isPlausible(serial), DiscoveredText.isIPv4Address(sender)
        else { return nil }
        return DiscoveredPrinter(
            serial: serial,
            address: sender,
            modelCode: headers["devmodel.bambu.com"],
            name: headers["devname.bambu.com"],
            connection: headers["devconnect.bambu.com"].flatMap { DiscoveredPrinter.Connection(rawValue: $0.lowercased()) },
            bindState: headers["devbind.bambu.com"],
            firmwareVersion: headers["devversion.bambu.com"],
            signal: headers["devsignal.bambu.com"]
        )
    }

    /// Header lines up to the first blank line, by lower-cased name; the first of a repeated name
    /// wins. Empty values and values with control characters count as absent; bidirectional
    /// embeddings, overrides and isolates are taken out (`BidiControls`: a name is shown in sentences).
    private static func headerFields(_ lines: ArraySlice<String>) -> [String: String] {
        var fields: [String: String] = [:]
        for line in lines {
            if line.trimmingCharacters(in: .whitespaces).isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard !value.isEmpty, !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }),
                  fields[name] == nil else { continue }
            fields[name] = BidiControls.removed(from: value)
        }
        return fields
    }
}

extension DiscoveredPrinter {
    /// A Bambu printer as its SSDP announcement describes it: its kind and model name from the
    /// model code when Layerwatch knows the model.
    public init(serial: String, address: String, modelCode: String? = nil, name: String? = nil,
                connection: Connection? = nil, bindState: String? = nil, firmwareVersion: String? = nil,
                signal: String? = nil) {
        let model = modelCode.flatMap(BambuModel.init(rawValue:))
        self.init(family: BambuDiscovery.id, identifier: serial, address: address, name: name, modelCode: modelCode,
                  modelName: model?.displayName ?? modelCode, kindName: model.map { Printer.Kind.bambu($0).name },
                  variant: model?.rawValue, firmwareVersion: firmwareVersion, connection: connection,
                  bindState: bindState, signal: signal)
    }

    /// A Bambu printer's model, when its code is one Layerwatch knows (it decides the camera transport).
    public var model: BambuModel? { family == BambuDiscovery.id ? modelCode.flatMap(BambuModel.init(rawValue:)) : nil }
}

extension PrinterDiscovery.Endpoint {
    /// Where Bambu printers announce themselves: broadcast to port 2021 and multicast to
    /// 239.255.255.250:1990.
    public static let bambu: [PrinterDiscovery.Endpoint] = [
        PrinterDiscovery.Endpoint(port: 2021),
        PrinterDiscovery.Endpoint(port: 1990, multicastGroup: "239.255.255.250"),
    ]
}
