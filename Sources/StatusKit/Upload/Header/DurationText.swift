import Foundation

/// A slicer's estimate of a print's time as it writes it: `1d 2h 3m 4s`, `32m 6s` (PrusaSlicer,
/// OrcaSlicer) or plain seconds (`3723`, Cura's).
enum DurationText {
    /// The longest estimate believed: a year.
    static let longest = 366 * 24 * 3600

    static func seconds(_ text: String) -> Int? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let plain = Double(text) { return plausible(plain) }
        var total = 0.0
        let units: [Character: Double] = ["d": 86400, "h": 3600, "m": 60, "s": 1]
        let parts = text.split(separator: " ")
        guard !parts.isEmpty else { return nil }
        for part in parts {
            guard let unit = part.last.flatMap({ units[$0] }), let value = Double(part.dropLast()), value.isFinite, value >= 0 else { return nil }
            total += value * unit
        }
        return plausible(total)
    }

    private static func plausible(_ seconds: Double) -> Int? {
        seconds.isFinite && seconds >= 0 && seconds <= Double(longest) ? Int(seconds.rounded()) : nil
    }
}
