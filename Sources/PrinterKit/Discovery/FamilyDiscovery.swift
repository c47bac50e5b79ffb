import Foundation

/// A printer family's discovery, declared by its `PrinterFamily` (`discovery`): the UDP ports its
/// printers announce themselves on and how one of its announcements reads. `PrinterDiscovery`
/// listens on every registered family's ports and `DiscoveryParser` hands each datagram to each
/// family's reader, so a family that can be discovered adds its own file here and nothing else.
protocol FamilyDiscovery: Sendable {
    /// Where its printers announce themselves.
    var endpoints: [PrinterDiscovery.Endpoint] { get }
    /// The printer `datagram` (at most `DiscoveryParser.maximumDatagramSize` bytes) announces from
    /// `sender`, its source address; nil when it is not one of this family's announcements.
    func parse(_ datagram: [UInt8], sender: String) -> DiscoveredPrinter?
}
