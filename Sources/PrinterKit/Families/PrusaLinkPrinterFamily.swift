import Foundation
import StatusKit
import StreamKit

/// The Prusa family (MK4, XL, Core One, MINI with PrusaLink) as a saved printer: its status from
/// PrusaLink at its address, logged in with the password the printer shows, kept in the keyring
/// like an API key; its cameras by URL (PrusaLink serves none: a Buddy3D camera streams
/// `rtsp://CAMERA/live`), or none, when its tab and tile show the job's thumbnail.
struct PrusaLinkPrinterFamily: StatusAPIFamily {
    let kindNames = ["prusalink"]
    let usualPort = StatusEndpoint.prusaLinkPort
    let secretNoun: SecretsPlace.Noun? = .password
    /// Its printers answer a DNS-SD question for PrusaLink.
    let discovery: (any FamilyDiscovery)? = PrusaLinkDiscovery()
    var emptyHostMessage: String { tr("Enter the printer's address (on the printer: Settings → Network).") }
    var missingKeyMessage: String? { tr("Enter the PrusaLink password (on the printer: Settings → Network → PrusaLink).") }
    var invalidKeyMessage: String? { tr("A PrusaLink password has only letters, digits and punctuation, no spaces: copy it again from the printer's screen.") }

    func displayName(of kind: Printer.Kind) -> String? { "Prusa (PrusaLink)" }

    func statusEndpoint(host: String, port: Int, key: String) -> StatusEndpoint {
        .prusaLink(host: host, port: port, password: key)
    }
}

extension Printer.Kind {
    /// A Prusa printer with PrusaLink: its status from its address, its cameras by URL.
    public static let prusaLink = Printer.Kind(family: PrusaLinkPrinterFamily(), name: "prusalink")
}
