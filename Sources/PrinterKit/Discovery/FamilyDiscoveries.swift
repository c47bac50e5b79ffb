import Foundation

/// Every family discovery Layerwatch has: those of the registered families (`PrinterFamilies`)
/// and those whose family is not registered yet, so `layerwatch discover` lists their printers
/// while the Add Printer dialog, which offers only what it can add, leaves them out
/// (`DiscoveredPrinter.isOffered`).
enum FamilyDiscoveries {
    /// Discoveries written before their family: each leaves this list when its family declares it
    /// as its `discovery`.
    private static let withoutFamily: [any FamilyDiscovery] = [ElegooDiscovery(), FlashforgeDiscovery()]

    static var all: [any FamilyDiscovery] {
        let registered = PrinterFamilies.discoveries
        return registered + withoutFamily.filter { pending in !registered.contains { $0.id == pending.id } }
    }

    /// The family name of the discovery `id` ("Elegoo"); `id` itself for one not known.
    static func title(of id: String) -> String {
        all.first { $0.id == id }?.title ?? id
    }
}
