import Foundation

/// Turns one datagram heard on the discovery ports, or answering an ask, into a printer, or
/// nothing: the printer of the first family whose discovery (`FamilyDiscovery`, every one in
/// `PrinterFamilies.discoveries`) reads it as one of its announcements or answers. Anything on those ports
/// may be garbage, another vendor's announcement or a search by a slicer, which no family reads.
public enum DiscoveryParser {
    /// Larger datagrams are not announcements (a real one is well under 1 KiB).
    public static let maximumDatagramSize = 8 * 1024

    /// The printer a datagram announces, at `sender`, the datagram's source address.
    public static func parse(_ datagram: [UInt8], sender: String) -> DiscoveredPrinter? {
        guard datagram.count <= maximumDatagramSize else { return nil }
        return PrinterFamilies.discoveries.lazy.compactMap { $0.parse(datagram, sender: sender) }.first
    }
}
