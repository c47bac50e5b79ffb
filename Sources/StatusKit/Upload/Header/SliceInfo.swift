/// Bambu Studio's and OrcaSlicer's `Metadata/slice_info.config` in a sliced 3MF: per plate its
/// number (`index`), the time (`prediction`, seconds), the weight (`weight`, grams), its objects
/// and the filament each slot gives (`used_m`, `used_g`).
struct SliceInfo {
    private(set) var plates: [Int: PrintFileHeader.Plate] = [:]

    init(_ xml: String) {
        var plate: [String: String]?
        var objects = 0, metres = 0.0, grams = 0.0
        for tag in XMLTag.tags(in: xml) {
            switch (tag.name, tag.isClosing) {
            case ("plate", false):
                (plate, objects, metres, grams) = ([:], 0, 0, 0)
            case ("metadata", false):
                if let key = tag.attributes["key"], let value = tag.attributes["value"] { plate?[key] = value }
            case ("object", false):
                objects += 1
            case ("filament", false):
                metres += tag.attributes["used_m"].flatMap(Self.amount) ?? 0
                grams += tag.attributes["used_g"].flatMap(Self.amount) ?? 0
            case ("plate", true):
                guard let metadata = plate, let number = metadata["index"].flatMap(Int.init),
                      (1...Project3MFHeader.mostPlates).contains(number) else { break }
                var found = PrintFileHeader.Plate(number: number)
                found.printSeconds = metadata["prediction"].flatMap(DurationText.seconds)
                found.filamentGrams = metadata["weight"].flatMap(Self.amount) ?? (grams > 0 ? grams : nil)
                found.filamentMillimetres = metres > 0 ? metres * 1000 : nil
                found.objectCount = objects > 0 ? objects : nil
                plates[number] = found
                plate = nil
            default:
                break
            }
        }
    }

    private static func amount(_ text: String) -> Double? {
        Double(text).flatMap { $0.isFinite && $0 >= 0 && $0 < 1e7 ? $0 : nil }
    }
}
