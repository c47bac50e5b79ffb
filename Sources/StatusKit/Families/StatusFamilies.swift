import Foundation
import StreamKit

/// The registry of printer families whose status Layerwatch reads: adding a family is one line here
/// and its own folder. The demo printer has no URL and is not listed.
enum StatusFamilies {
    static let all: [any StatusURLFamily] = [
        BambuStatusFamily(),
        MoonrakerStatusFamily(),
        OctoPrintStatusFamily(),
        CrealityStatusFamily(),
        ElegooStatusFamily(),
        FlashforgeStatusFamily(),
        PrusaLinkStatusFamily(),
    ]

    /// The family whose scheme or alias is `scheme` (lowercased).
    static func family(scheme: String) -> (any StatusURLFamily)? {
        all.first { $0.scheme == scheme || $0.aliases.contains(scheme) }
    }
}
