import Foundation

/// A list as a sentence says it — "a, b and c", "a, b or c" — translated with its joining word:
/// the families a hint names, the URLs a usage message offers.
public enum SpokenList {
    /// "a, b and c".
    public static func all(_ items: [String]) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return String(format: tr("%@ and %@"), items.dropLast().joined(separator: ", "), last)
    }

    /// "a, b or c".
    public static func either(_ items: [String]) -> String {
        guard let last = items.last, items.count > 1 else { return items.first ?? "" }
        return String(format: tr("%@ or %@"), items.dropLast().joined(separator: ", "), last)
    }
}
