import Foundation

/// What `layerwatch history --since` takes: a time ago (`30m`, `24h`, `7d`, `2w`) or a date
/// (`2026-12-01`, local midnight) or a date and time (`2026-12-01T08:30`, local, or ISO 8601 with its
/// zone: `2026-12-01T08:30:00Z`), read as the moment prints must have started after.
enum HistorySince {
    /// The moment `text` names, counted back from `now`; nil when it is none of the forms above.
    static func moment(_ text: String, now: Date = Date(), timeZone: TimeZone = .current) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [Character: TimeInterval] = ["m": 60, "h": 3600, "d": 86400, "w": 7 * 86400]
        if let unit = trimmed.last.flatMap({ units[$0] }), let count = Int(trimmed.dropLast()), count >= 0 {
            return now.addingTimeInterval(-Double(count) * unit)
        }
        let zoned = ISO8601DateFormatter()
        if let date = zoned.date(from: text) { return date }
        for format in ["yyyy-MM-dd", "yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd HH:mm"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = timeZone
            formatter.dateFormat = format
            formatter.isLenient = false
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
