import Foundation

/// The summary slicers write as `key = value` (PrusaSlicer, SuperSlicer, OrcaSlicer and Bambu
/// Studio in G-code comments and in binary G-code's metadata) or `KEY:value` (Cura): the few keys
/// that say the print's time, filament, layers and objects, and the slicer's name. Collected from
/// wherever the file holds them, then made a header, a total preferred to a per-extruder sum.
struct SlicerSummary {
    private var values: [String: String] = [:]
    private var slicer: PrintFileHeader.Slicer?

    /// In order of preference: Orca's header and Prusa's summary give the whole print; Cura's
    /// `TIME`, Ultimaker's `PRINT.TIME` (seconds).
    private static let timeKeys = ["estimated printing time (normal mode)", "total estimated time", "time", "print.time"]
    private static let millimetreKeys = ["total filament length [mm]", "filament used [mm]"]
    /// Cura's, in metres (`1.23m`, one per extruder).
    private static let metreKeys = ["filament used"]
    private static let gramKeys = ["total filament used [g]", "total filament weight [g]", "filament used [g]"]
    private static let layerHeightKeys = ["layer_height", "layer height"]
    private static let layerCountKeys = ["total layer number", "total layers count", "layer_count"]
    /// PrusaSlicer's `{"objects":[{"name":…,"polygon":…},…]}`.
    private static let objectsKey = "objects_info"
    /// Binary G-code's file metadata (`PrusaSlicer 2.6.0`).
    private static let producerKey = "producer"
    private static let known = Set(timeKeys + millimetreKeys + metreKeys + gramKeys + layerHeightKeys + layerCountKeys + [objectsKey, producerKey])

    /// Keeps `value` when `key` (in any case) is one the summary reads.
    mutating func take(key: String, value: String) {
        let key = key.trimmingCharacters(in: .whitespaces).lowercased()
        guard Self.known.contains(key) else { return }
        if key == Self.producerKey {
            takeSlicer(value)
        } else {
            values[key] = value.trimmingCharacters(in: .whitespaces)
        }
    }

    /// The slicer as a file names it: `PrusaSlicer 2.7.1+win64 on 2024-03-01 at 10:00:00 UTC`,
    /// `Cura_SteamEngine 5.6.0`, `BambuStudio-01.09.00.70`; the first one said is kept.
    mutating func takeSlicer(_ text: String) {
        if slicer == nil { slicer = Self.slicer(from: text) }
    }

    /// The slicer `text` names, as `takeSlicer` reads it.
    static func slicer(from text: String) -> PrintFileHeader.Slicer? {
        var text = text.trimmingCharacters(in: .whitespaces)
        if let on = text.range(of: " on ") { text.removeSubrange(on.lowerBound...) }
        let separator = text.firstIndex(of: " ") ?? text.firstIndex(of: "-")
        var name = String(separator.map { text[..<$0] } ?? text[...])
        let version = separator.map { String(text[text.index(after: $0)...]).trimmingCharacters(in: .whitespaces) }
        name = ["Cura_SteamEngine": "Cura", "BambuStudio": "Bambu Studio"][name] ?? name
        guard plausibleName(name), version.map(plausibleName) ?? true else { return nil }
        return PrintFileHeader.Slicer(name: name, version: version?.isEmpty == false ? version : nil)
    }

    /// A header saying what was said.
    var header: PrintFileHeader {
        var header = PrintFileHeader()
        header.slicer = slicer
        header.printSeconds = first(Self.timeKeys, DurationText.seconds)
        header.filamentMillimetres = first(Self.millimetreKeys) { Self.sum($0, limit: 1e9) }
            ?? first(Self.metreKeys) { Self.sum($0, unit: "m", limit: 1e6).map { $0 * 1000 } }
        header.filamentGrams = first(Self.gramKeys) { Self.sum($0, limit: 1e7) }
        header.layerHeight = first(Self.layerHeightKeys, Self.layerHeight)
        header.layerCount = first(Self.layerCountKeys) { Int($0).flatMap { (1...1_000_000).contains($0) ? $0 : nil } }
        header.objectCount = values[Self.objectsKey].flatMap(Self.objectCount)
        return header
    }

    private func first<T>(_ keys: [String], _ parse: (String) -> T?) -> T? {
        for key in keys {
            if let value = values[key].flatMap(parse) { return value }
        }
        return nil
    }

    /// A layer height in millimetres, when it is one (above 0, below 10).
    static func layerHeight(_ text: String) -> Double? {
        Double(text.trimmingCharacters(in: .whitespaces)).flatMap { $0 > 0 && $0 < 10 ? $0 : nil }
    }

    /// `986.61`, or one per extruder (`12.5, 0, 3.25`), each optionally ending in `unit`: their
    /// sum, when each is a number from 0 to `limit`.
    private static func sum(_ text: String, unit: String = "", limit: Double) -> Double? {
        var total = 0.0
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            var number = part.trimmingCharacters(in: .whitespaces)
            if !unit.isEmpty, number.hasSuffix(unit) { number.removeLast(unit.count) }
            guard let value = Double(number), value.isFinite, (0...limit).contains(value) else { return nil }
            total += value
        }
        return total
    }

    private static func objectCount(_ json: String) -> Int? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let objects = object["objects"] as? [Any] else { return nil }
        return objects.count
    }

    private static func plausibleName(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 64 && text.unicodeScalars.allSatisfy { $0.properties.generalCategory != .control }
    }
}
