import Foundation

/// A printer family's discovery, declared by its `PrinterFamily` (`discovery`): the UDP ports its
/// printers announce themselves on, the questions that make them answer (`asks`), and how one of
/// its announcements or answers reads. `PrinterDiscovery` listens on every family's ports, sends
/// every family's asks, and `DiscoveryParser` hands each datagram to each family's reader, so a
/// family that can be discovered adds its own file here and nothing else.
protocol FamilyDiscovery: Sendable {
    /// Which family's discovery it is (`bambu`, `elegoo`…), as its finds carry it in
    /// `DiscoveredPrinter.family`; the registry resolves it to the family that declares it.
    var id: String { get }
    /// The family's name as its owners say it ("Bambu Lab"), for lists of finds.
    var title: String { get }
    /// Where its printers announce themselves unasked; none by default.
    var endpoints: [PrinterDiscovery.Endpoint] { get }
    /// What is sent to make its printers answer (to the asking socket); none by default.
    var asks: [DiscoveryAsk] { get }
    /// The printer `datagram` (at most `DiscoveryParser.maximumDatagramSize` bytes) announces from
    /// `sender`, its source address; nil when it is not one of this family's announcements or answers.
    func parse(_ datagram: [UInt8], sender: String) -> DiscoveredPrinter?
}

extension FamilyDiscovery {
    var endpoints: [PrinterDiscovery.Endpoint] { [] }
    var asks: [DiscoveryAsk] { [] }
}
