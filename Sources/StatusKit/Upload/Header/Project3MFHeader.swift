import Foundation

/// What a 3MF project says: its plates (Bambu Studio's and OrcaSlicer's `Metadata/plate_N.png`
/// pictures, `Metadata/plate_N.gcode` when sliced, `Metadata/slice_info.config`'s time, weight and
/// filament), the layer height (`Metadata/project_settings.config`), the slicer (`Application` in
/// the head of `3D/3dmodel.model`) and PrusaSlicer's `Metadata/thumbnail.png`. Only those entries
/// are inflated, each bounded; a project without any plate's G-code is unsliced.
enum Project3MFHeader {
    /// Far past the plates a slicer allows.
    static let mostPlates = 64
    /// The largest slice info or project settings inflated (Bambu Studio's are tens of KiB).
    static let largestConfig = 2 * 1024 * 1024
    /// The plates' pictures together.
    static let thumbnailBudget = 16 * 1024 * 1024
    /// How much of the model is inflated to find its `Application`: its metadata come first.
    static let modelHead = 16 * 1024

    private static let sliceInfo = "Metadata/slice_info.config"
    private static let settings = "Metadata/project_settings.config"
    private static let model = "3D/3dmodel.model"
    private static let projectThumbnail = "Metadata/thumbnail.png"

    static func read(_ file: PrintFileBytes) -> PrintFileHeader {
        guard let zip = ZipDirectory(file, wanted: { plateEntry($0) != nil || [sliceInfo, settings, model, projectThumbnail].contains($0) }) else {
            return PrintFileHeader()
        }
        var plates: [Int: PrintFileHeader.Plate] = [:]
        if let entry = zip.entries[sliceInfo], let xml = zip.contents(of: entry, limit: largestConfig) {
            plates = SliceInfo(String(decoding: xml, as: UTF8.self)).plates
        }
        for (number, isGCode) in zip.entries.keys.compactMap(plateEntry) {
            var plate = plates[number] ?? PrintFileHeader.Plate(number: number)
            plate.isSliced = plate.isSliced || isGCode
            plates[number] = plate
        }
        var budget = thumbnailBudget
        for number in plates.keys.sorted() {
            guard let entry = zip.entries["Metadata/plate_\(number).png"], entry.uncompressedSize <= Int64(budget),
                  let bytes = zip.contents(of: entry, limit: EmbeddedThumbnails.largestBytes) else { continue }
            budget -= bytes.count
            plates[number]?.thumbnail = PrintFileThumbnail(encoded: bytes)
        }
        var header = PrintFileHeader()
        header.plates = plates.keys.sorted().compactMap { plates[$0] }
        header.isUnslicedProject = !header.plates.contains { $0.isSliced }
        if let chosen = header.plates.first(where: \.isSliced) ?? header.plates.first {
            header.printSeconds = chosen.printSeconds
            header.filamentMillimetres = chosen.filamentMillimetres
            header.filamentGrams = chosen.filamentGrams
            header.objectCount = chosen.objectCount
            header.thumbnail = chosen.thumbnail
        }
        if header.thumbnail == nil, let entry = zip.entries[projectThumbnail],
           let bytes = zip.contents(of: entry, limit: EmbeddedThumbnails.largestBytes) {
            header.thumbnail = PrintFileThumbnail(encoded: bytes)
        }
        if let entry = zip.entries[settings], let json = zip.contents(of: entry, limit: largestConfig) {
            header.layerHeight = layerHeight(json)
        }
        if let entry = zip.entries[model], let head = zip.head(of: entry, count: modelHead) {
            header.slicer = application(String(decoding: head, as: UTF8.self))
        }
        return header
    }

    /// The plate a `Metadata/plate_N.png` or `Metadata/plate_N.gcode` belongs to, and whether it
    /// is its G-code.
    private static func plateEntry(_ name: String) -> (number: Int, isGCode: Bool)? {
        let prefix = "Metadata/plate_"
        guard name.hasPrefix(prefix) else { return nil }
        for (suffix, isGCode) in [(".png", false), (".gcode", true)] where name.hasSuffix(suffix) {
            let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
            guard digits.count <= 3, digits.allSatisfy(\.isASCII), let number = Int(digits), (1...mostPlates).contains(number) else { return nil }
            return (number, isGCode)
        }
        return nil
    }

    /// The `layer_height` of Bambu Studio's and OrcaSlicer's project settings (a JSON object of
    /// strings: `"layer_height": "0.2"`).
    private static func layerHeight(_ json: [UInt8]) -> Double? {
        let settings = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any]
        return (settings?["layer_height"] as? String).flatMap(SlicerSummary.layerHeight)
    }

    /// The slicer a model's `<metadata name="Application">BambuStudio-01.09.00.70</metadata>` names.
    private static func application(_ model: String) -> PrintFileHeader.Slicer? {
        guard let start = model.range(of: "name=\"Application\">"),
              let end = model[start.upperBound...].firstIndex(of: "<") else { return nil }
        return SlicerSummary.slicer(from: String(model[start.upperBound..<end]))
    }
}
