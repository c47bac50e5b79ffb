import Foundation
import JournalKit
import StreamKit

/// A journal of made-up prints with real JPEG final pictures, for the History page's tests and
/// its benchmark (`layerwatch-bench history-page`): years of a farm's prints in seconds. Prints
/// start every `spacing` seconds back from `now` on the printers in turn, mostly finished, every
/// seventh failed (with words), every eleventh cancelled; their pictures are a few distinct JPEGs
/// written once each per print (the page loads each file as its own).
public enum GeneratedJournal {
    /// Writes `count` prints, the newest first in the result, to the journal at `url` and their
    /// final pictures beside it (`pictures`), then closes it.
    @discardableResult
    public static func write(count: Int, to url: URL, printers: [String] = ["Voron", "Prusa MK4", "Bambu P1S"],
                             now: Date = Date(), spacing: TimeInterval = 2 * 3600, picture size: (width: Int, height: Int) = (640, 480)) throws -> [JournalPrint] {
        let store = JournalStore(url: url)
        defer { store.close() }
        let folder = store.picturesFolder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let jpegs = try (0..<6).map { try picture(size, shade: $0) }
        let prints = (0..<count).map { index -> JournalPrint in
            let printer = printers[index % printers.count]
            let started = now.addingTimeInterval(-spacing * Double(index + 1))
            let result: PrintResult = index % 7 == 3 ? .failed : index % 11 == 5 ? .cancelled : .finished
            let ended = started.addingTimeInterval(Double(30 + (index * 37) % 150) * 60)
            let file = folder.appendingPathComponent("print-\(index).jpg")
            FileManager.default.createFile(atPath: file.path, contents: Data(jpegs[index % jpegs.count]))
            return JournalPrint(key: "generated/\(index)", printerID: "printer-\(index % printers.count)", printerName: printer,
                                job: "part-\(index).gcode", started: started, ended: ended, result: result,
                                error: result == .failed ? "Filament runout" : nil, finalPicture: file)
        }
        store.record(contentsOf: prints)
        store.flush()
        return prints
    }

    /// A `size` JPEG of a diagonal gradient in one of a few colours.
    private static func picture(_ size: (width: Int, height: Int), shade: Int) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: size.width * size.height * 4)
        let colours: [(Int, Int, Int)] = [(200, 90, 40), (40, 140, 200), (60, 180, 90), (180, 60, 160), (220, 190, 40), (90, 90, 90)]
        let (red, green, blue) = colours[shade % colours.count]
        for y in 0..<size.height {
            for x in 0..<size.width {
                let light = (x + y) * 255 / (size.width + size.height)
                let at = (y * size.width + x) * 4
                pixels[at] = UInt8((blue + light) / 2)
                pixels[at + 1] = UInt8((green + light) / 2)
                pixels[at + 2] = UInt8((red + light) / 2)
            }
        }
        return try pixels.withUnsafeBytes { try TimelapseEncoder.jpeg($0.baseAddress!, width: size.width, height: size.height, stride: size.width * 4, order: .bgra) }
    }
}
