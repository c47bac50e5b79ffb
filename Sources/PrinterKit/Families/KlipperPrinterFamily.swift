import Foundation
import StatusKit
import StreamKit

/// The Klipper family as a saved printer: its cameras by URL, its status from Moonraker on its
/// host, whose API key is optional.
struct KlipperPrinterFamily: StatusAPIFamily {
    let kindNames = ["klipper"]
    let usualPort = StatusEndpoint.moonrakerPort
    var emptyHostMessage: String { tr("Enter the address of the computer running Klipper (the one you open Mainsail or Fluidd at).") }
    let missingKeyMessage: String? = nil

    func displayName(of kind: Printer.Kind) -> String? { "Klipper" }

    func statusEndpoint(host: String, port: Int, key: String) -> StatusEndpoint {
        .moonraker(host: host, port: port, apiKey: key.isEmpty ? nil : key)
    }
}

extension Printer.Kind {
    /// A Klipper printer: its cameras by URL, its status from Moonraker on `host`.
    public static let klipper = Printer.Kind(family: KlipperPrinterFamily(), name: "klipper")
}
