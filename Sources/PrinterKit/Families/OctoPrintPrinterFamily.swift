import Foundation
import StatusKit
import StreamKit

/// The OctoPrint family as a saved printer: its cameras by URL, its status from OctoPrint on its
/// host, which always wants an API key.
struct OctoPrintPrinterFamily: StatusAPIFamily {
    let kindNames = ["octoprint"]
    let usualPort = StatusEndpoint.octoprintPort
    var emptyHostMessage: String { tr("Enter the address of the computer running OctoPrint (the one you open OctoPrint at).") }
    var missingKeyMessage: String? { tr("Enter OctoPrint's API key (in OctoPrint: Settings → Application Keys).") }

    func displayName(of kind: Printer.Kind) -> String? { "OctoPrint" }

    func statusEndpoint(host: String, port: Int, key: String) -> StatusEndpoint {
        .octoprint(host: host, port: port, apiKey: key)
    }
}

extension Printer.Kind {
    /// An OctoPrint printer: its cameras by URL, its status from OctoPrint on `host`.
    public static let octoprint = Printer.Kind(family: OctoPrintPrinterFamily(), name: "octoprint")
}
