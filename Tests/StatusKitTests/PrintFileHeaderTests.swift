import Foundation
import StatusKit
import TestSupport
import XCTest

/// What a print file says about itself (`PrintFileHeader.read`), from files made as slicers make
/// them by Tests/Servers/print_files.py: PrusaSlicer's, SuperSlicer's, OrcaSlicer's and Cura's
/// G-code, binary G-code built per libbgcode's specification, Bambu Studio's and PrusaSlicer's
/// 3MF written by Python's zipfile; and hostile ones (garbage, cut short, lying sizes, bombs),
/// which say nothing or less, in bounded memory.
final class PrintFileHeaderTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try makeTemporaryDirectory()
    }

    /// Makes `name` in the test's folder with print_files.py: the file and what the script says
    /// it put in it.
    private func make(_ command: String, _ name: String, _ options: [String] = []) throws -> (PrintFile, [String: Any]) {
        let url = folder.appendingPathComponent(name)
        let said = try PrintFiles.make(command, at: url, options)
        return (try PrintFile(url: url), said)
    }

    /// The thumbnail is a PNG of `width`×`height` whose pixels (decoded by the script, not by
    /// Layerwatch) hash to `sha256` when given.
    private func assertPNG(_ thumbnail: PrintFileThumbnail?, _ width: Int, _ height: Int, pixels sha256: String? = nil,
                           file: StaticString = #filePath, line: UInt = #line) throws {
        let thumbnail = try XCTUnwrap(thumbnail, "a thumbnail", file: file, line: line)
        XCTAssertEqual(thumbnail.format, .png, file: file, line: line)
        XCTAssertEqual(Array(thumbnail.image.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], file: file, line: line)
        XCTAssertEqual([thumbnail.width, thumbnail.height], [width, height], file: file, line: line)
        let url = folder.appendingPathComponent("thumbnail-\(UUID().uuidString).png")
        try thumbnail.image.write(to: url)
        let decoded = try PrintFiles.pngPixels(at: url)
        XCTAssertEqual(decoded["width"] as? Int, width, file: file, line: line)
        XCTAssertEqual(decoded["height"] as? Int, height, file: file, line: line)
        if let sha256 { XCTAssertEqual(decoded["sha256"] as? String, sha256, "the QOI picture's pixels, re-encoded", file: file, line: line) }
    }

    // MARK: Text G-code

    /// PrusaSlicer and SuperSlicer write the summary at the file's end, past the head that holds
    /// the thumbnails; the largest thumbnail (a QOI one here) is given as PNG with its pixels.
    func testPrusaSlicerSummaryAtTheEndAndTheLargestThumbnail() throws {
        for (style, slicer, version) in [("prusa", "PrusaSlicer", "2.7.1+linux-x64-GTK3"), ("superslicer", "SuperSlicer", "2.5.59.13")] {
            let (file, said) = try make("gcode", "\(style).gcode", ["--style", style, "--png", "32x24", "--jpeg", "20x10",
                                                                    "--qoi", "48x20", "--body-bytes", "2000000"])
            XCTAssertGreaterThan(file.size, 2_000_000, "the summary lies past the head")
            let header = PrintFileHeader.read(file)
            XCTAssertEqual(header.slicer, PrintFileHeader.Slicer(name: slicer, version: version))
            XCTAssertEqual(header.printSeconds, 86400 + 2 * 3600 + 3 * 60 + 4, "1d 2h 3m 4s")
            XCTAssertEqual(try XCTUnwrap(header.filamentMillimetres), 1334.56, accuracy: 0.001, "both extruders")
            XCTAssertEqual(try XCTUnwrap(header.filamentGrams), 4.00, accuracy: 0.001, "the total, wipe tower included")
            XCTAssertEqual(header.layerHeight, 0.15)
            XCTAssertEqual(header.objectCount, 2, "objects_info's objects")
            try assertPNG(header.thumbnail, 48, 20, pixels: said["qoi_sha256"] as? String)
            XCTAssertTrue(header.plates.isEmpty)
            XCTAssertFalse(header.isUnslicedProject)
        }
    }

    func testAJPEGThumbnailStaysJPEG() throws {
        let (file, _) = try make("gcode", "jpeg.gcode", ["--jpeg", "40x30", "--png", "16x12"])
        let thumbnail = try XCTUnwrap(PrintFileHeader.read(file).thumbnail)
        XCTAssertEqual(thumbnail.format, .jpeg)
        XCTAssertEqual(Array(thumbnail.image.prefix(2)), [0xFF, 0xD8])
        XCTAssertEqual([thumbnail.width, thumbnail.height], [40, 30])
    }

    /// OrcaSlicer's and Bambu Studio's header block at the top: `key: value` lines, two on one.
    func testOrcaSlicerAndBambuStudioHeaderBlock() throws {
        for (style, slicer, version) in [("orca", "OrcaSlicer", "2.1.1"), ("bambu", "Bambu Studio", "01.09.00.70")] {
            let (file, _) = try make("gcode", "\(style).gcode", ["--style", style, "--png", "30x30"])
            let header = PrintFileHeader.read(file)
            XCTAssertEqual(header.slicer, PrintFileHeader.Slicer(name: slicer, version: version))
            XCTAssertEqual(header.printSeconds, 47 * 60 + 43, "the total estimate, not the model's")
            XCTAssertEqual(try XCTUnwrap(header.filamentMillimetres), 2584.33, accuracy: 0.001)
            XCTAssertEqual(try XCTUnwrap(header.filamentGrams), 7.71, accuracy: 0.001)
            XCTAssertEqual(header.layerCount, 75)
            XCTAssertEqual(header.layerHeight, 0.2)
            try assertPNG(header.thumbnail, 30, 30)
        }
    }

    func testCuraHeader() throws {
        let (file, _) = try make("gcode", "cura.gcode", ["--style", "cura", "--png", "20x16"])
        let header = PrintFileHeader.read(file)
        XCTAssertEqual(header.slicer, PrintFileHeader.Slicer(name: "Cura", version: "5.6.0"))
        XCTAssertEqual(header.printSeconds, 6666)
        XCTAssertEqual(try XCTUnwrap(header.filamentMillimetres), 1734.56, accuracy: 0.001, "1.23456 m and 0.5 m")
        XCTAssertNil(header.filamentGrams, "Cura says no weight")
        XCTAssertEqual(header.layerHeight, 0.12)
        XCTAssertEqual(header.layerCount, 150)
        try assertPNG(header.thumbnail, 20, 16)
    }

    /// A thumbnail block of base64 garbage, one whose length is not the one declared, one whose
    /// PNG declares 100000×100000: none is shown, and the rest of the file is still read.
    func testHostileThumbnailBlocksAreDropped() throws {
        for options in [["--garbage-base64"], ["--wrong-length"], ["--huge-png"]] {
            let (file, _) = try make("gcode", "hostile.gcode", ["--style", "cura", "--png", "20x16"] + options)
            let header = PrintFileHeader.read(file)
            XCTAssertEqual(header.printSeconds, 6666, "\(options)")
            if options == ["--huge-png"] {
                try assertPNG(header.thumbnail, 20, 16)
            } else {
                XCTAssertNil(header.thumbnail, "\(options)")
            }
        }
    }

    /// A 300 MB G-code: its head and tail read, never the rest, so memory stays small.
    func test300MBGCodeInBoundedMemory() throws {
        let (file, _) = try make("gcode", "large.gcode", ["--png", "32x24", "--body-bytes", "300000000"])
        XCTAssertGreaterThan(file.size, 300_000_000)
        XCTAssertTrue(ProcessMemory.resetPeak())
        let before = try XCTUnwrap(ProcessMemory.residentBytes)
        let started = Date()
        let header = PrintFileHeader.read(file)
        let peak = try XCTUnwrap(ProcessMemory.peakResidentBytes)
        XCTAssertEqual(header.printSeconds, 93784, "the summary at its end")
        try assertPNG(header.thumbnail, 32, 24)
        XCTAssertLessThan(peak - before, 16 << 20, "peak RSS grew by \(peak - before) bytes")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    // MARK: Binary G-code

    /// Binary G-code as libbgcode's specification lays it out, with deflated or stored metadata,
    /// with or without CRC-32: the print metadata's time and filament, the file metadata's
    /// producer, the largest thumbnail (QOI, given as PNG).
    func testBinaryGCodeMetadataAndThumbnails() throws {
        for (checksum, compression) in [("crc32", "deflate"), ("none", "none"), ("crc32", "none"), ("none", "deflate")] {
            let (file, said) = try make("bgcode", "part-\(checksum)-\(compression).bgcode",
                                        ["--checksum", checksum, "--compression", compression, "--png", "30x20", "--qoi", "40x20"])
            let header = PrintFileHeader.read(file)
            XCTAssertEqual(header.slicer, PrintFileHeader.Slicer(name: "PrusaSlicer", version: "2.8.1"), "\(checksum) \(compression)")
            XCTAssertEqual(header.printSeconds, 3723, "the print metadata's 1h 2m 3s")
            XCTAssertEqual(try XCTUnwrap(header.filamentMillimetres), 1234.5, accuracy: 0.001)
            XCTAssertEqual(try XCTUnwrap(header.filamentGrams), 3.68, accuracy: 0.001)
            XCTAssertEqual(header.layerHeight, 0.25)
            try assertPNG(header.thumbnail, 40, 20, pixels: said["qoi_sha256"] as? String)
        }
    }

    /// A wrong CRC-32, a file cut among its metadata, a block declaring 4 GiB: the file is
    /// damaged and says nothing. A QOI thumbnail cut short, and a block that inflates past its
    /// declared size, are passed over.
    func testDamagedBinaryGCodeSaysNothing() throws {
        let (good, _) = try make("bgcode", "good.bgcode", ["--png", "30x20"])
        XCTAssertFalse(PrintFileHeader.read(good).isEmpty)
        for options in [["--bad-crc"], ["--huge-block"], ["--truncate", "9"], ["--truncate", "40"], ["--truncate", "300"]] {
            let (file, _) = try make("bgcode", "damaged.bgcode", ["--png", "30x20"] + options)
            XCTAssertTrue(PrintFileHeader.read(file).isEmpty, "\(options)")
        }
        let (cutQOI, _) = try make("bgcode", "cut-qoi.bgcode", ["--png", "30x20", "--bad-qoi"])
        try assertPNG(PrintFileHeader.read(cutQOI).thumbnail, 30, 20)  // the QOI declaring 2000×2000 holds 8 pixels
        XCTAssertTrue(ProcessMemory.resetPeak())
        let before = try XCTUnwrap(ProcessMemory.residentBytes)
        let (bomb, _) = try make("bgcode", "bomb.bgcode", ["--bomb"])
        let header = PrintFileHeader.read(bomb)
        XCTAssertLessThan(try XCTUnwrap(ProcessMemory.peakResidentBytes) - before, 16 << 20, "64 MiB never inflated")
        XCTAssertEqual(header.printSeconds, 3723, "the blocks after the bomb are read")
    }

    // MARK: 3MF

    /// Bambu Studio's sliced 3MF with two plates, as written (sizes in the directory), with data
    /// descriptors (written as a stream) and in Zip64 form: each plate's time, filament, objects
    /// and picture; the header's own are plate 1's.
    func testBambuProjectPlates() throws {
        for options in [[], ["--stream"], ["--zip64"]] {
            let (file, said) = try make("3mf", "plates.gcode.3mf", ["--plates", "2"] + options)
            let expected = try XCTUnwrap(said["plates"] as? [[String: Any]])
            let header = PrintFileHeader.read(file)
            XCTAssertEqual(header.plates.map(\.number), [1, 2], "\(options)")
            XCTAssertFalse(header.isUnslicedProject)
            XCTAssertEqual(header.slicer, PrintFileHeader.Slicer(name: "Bambu Studio", version: "01.09.00.70"))
            XCTAssertEqual(header.layerHeight, 0.16, "the project's settings")
            for (plate, said) in zip(header.plates, expected) {
                XCTAssertTrue(plate.isSliced)
                XCTAssertEqual(plate.printSeconds, said["seconds"] as? Int)
                XCTAssertEqual(try XCTUnwrap(plate.filamentGrams), try XCTUnwrap(said["grams"] as? Double), accuracy: 0.001)
                let metres = try XCTUnwrap(said["filaments"] as? [[Double]]).map { $0[0] }.reduce(0, +)
                XCTAssertEqual(try XCTUnwrap(plate.filamentMillimetres), metres * 1000, accuracy: 0.001)
                XCTAssertEqual(plate.objectCount, said["objects"] as? Int)
                let size = try XCTUnwrap(said["thumbnail"] as? [Int])
                try assertPNG(plate.thumbnail, size[0], size[1])
            }
            XCTAssertEqual(header.printSeconds, header.plates[0].printSeconds)
            XCTAssertEqual(header.thumbnail, header.plates[0].thumbnail)
            XCTAssertEqual(header.objectCount, header.plates[0].objectCount)
        }
    }

    func testAnUnslicedProjectSaysSo() throws {
        let (file, _) = try make("3mf", "project.3mf", ["--plates", "2", "--unsliced"])
        let header = PrintFileHeader.read(file)
        XCTAssertTrue(header.isUnslicedProject)
        XCTAssertEqual(header.plates.map(\.number), [1, 2])
        XCTAssertEqual(header.plates.map(\.isSliced), [false, false])
        XCTAssertNil(header.printSeconds)
        try assertPNG(header.thumbnail, 50, 35)
    }

    func testPrusaSlicerProjectThumbnail() throws {
        let (file, _) = try make("3mf", "prusa.3mf", ["--plates", "0", "--prusa"])
        let header = PrintFileHeader.read(file)
        XCTAssertEqual(header.slicer, PrintFileHeader.Slicer(name: "PrusaSlicer", version: "2.7.1"))
        XCTAssertTrue(header.isUnslicedProject)
        XCTAssertTrue(header.plates.isEmpty)
        try assertPNG(header.thumbnail, 64, 48)
    }

    /// slice_info.config replaced by 64 MiB of deflated zeros while the directory declares its
    /// old size: it is not inflated past that, and the rest of the project is read.
    func testAZipBombEntryIsCutShort() throws {
        XCTAssertTrue(ProcessMemory.resetPeak())
        let before = try XCTUnwrap(ProcessMemory.residentBytes)
        let (file, _) = try make("3mf", "bomb.3mf", ["--plates", "2", "--bomb"])
        let header = PrintFileHeader.read(file)
        XCTAssertLessThan(try XCTUnwrap(ProcessMemory.peakResidentBytes) - before, 16 << 20)
        XCTAssertEqual(header.plates.map(\.number), [1, 2])
        XCTAssertNil(header.printSeconds, "the bombed slice info is not read")
        try assertPNG(header.plates[1].thumbnail, 60, 40)
    }

    /// Zip64 numbers near 2⁶³ (the directory's offset, an entry's compressed size): refused,
    /// never added up past the file's end.
    func testLyingZip64NumbersAreRefused() throws {
        let (project, _) = try make("3mf", "zip64.3mf", ["--plates", "2", "--zip64"])
        let bytes = try Data(contentsOf: project.url)
        let huge: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]
        func last(_ signature: [UInt8], in data: Data) throws -> Int {
            try XCTUnwrap((0...(data.count - signature.count)).reversed().first { data[$0..<($0 + signature.count)].elementsEqual(signature) })
        }
        var directoryFar = bytes
        let record = try last([0x50, 0x4B, 0x06, 0x06], in: bytes)
        directoryFar.replaceSubrange((record + 48)..<(record + 56), with: huge)
        var entryHuge = bytes
        // The model's directory entry: its Zip64 field holds its sizes, uncompressed then compressed.
        let name = try last(Array("3D/3dmodel.model".utf8), in: bytes)
        XCTAssertEqual(Array(bytes[(name + 16)..<(name + 20)]), [0x01, 0x00, 0x10, 0x00], "a Zip64 field of two sizes")
        entryHuge.replaceSubrange((name + 28)..<(name + 36), with: huge)
        for (label, data) in [("directory", directoryFar), ("entry", entryHuge)] {
            let url = folder.appendingPathComponent("\(label).3mf")
            try data.write(to: url)
            let header = PrintFileHeader.read(try PrintFile(url: url))
            if label == "entry" {
                XCTAssertNil(header.slicer, "the model is not read")
                XCTAssertEqual(header.plates.count, 2, "the rest is")
            } else {
                XCTAssertTrue(header.isEmpty)
            }
        }
    }

    /// Files of each kind with bytes overwritten (a few at random, or a number's worth set to
    /// 0xFF…) or cut at random, two hundred times each, from a fixed seed: read without a crash.
    /// The binary G-code has no checksum, so its damaged blocks are parsed, not refused.
    func testMutatedFilesNeverCrash() throws {
        let (gcode, _) = try make("gcode", "part.gcode", ["--style", "orca", "--png", "20x16", "--qoi", "24x12"])
        let (bgcode, _) = try make("bgcode", "part.bgcode", ["--checksum", "none", "--png", "20x16", "--qoi", "24x12"])
        let (project, _) = try make("3mf", "part.3mf", ["--zip64", "--stream"])
        var random = SeededRandom(seed: 39)
        for original in [gcode, bgcode, project] {
            let bytes = try Data(contentsOf: original.url)
            let url = folder.appendingPathComponent("mutated-" + original.name)
            for round in 0..<200 {
                var data = bytes
                switch round % 3 {
                case 0:
                    for _ in 0..<Int.random(in: 1...16, using: &random) {
                        data[Int.random(in: 0..<data.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                    }
                case 1:
                    let at = Int.random(in: 0..<(data.count - 8), using: &random)
                    let width = [2, 4, 8].randomElement(using: &random)!
                    data.replaceSubrange(at..<(at + width), with: Array(repeating: 0xFF, count: width - 1) + [0x7F])  // little-endian
                default:
                    data = data.prefix(Int.random(in: 1..<data.count, using: &random))
                }
                try data.write(to: url)
                _ = PrintFileHeader.read(try PrintFile(url: url))
            }
        }
    }

    /// Garbage, a zip cut in half, a directory declared larger than the file: nothing, no crash.
    func testBrokenFilesSayNothing() throws {
        let (project, _) = try make("3mf", "cut.3mf", ["--plates", "2"])
        let bytes = try Data(contentsOf: project.url)
        var noise = SeededRandom(seed: 1)
        let garbage = Data((0..<200_000).map { _ in UInt8.random(in: 0...255, using: &noise) })
        var lying = bytes
        let end = try XCTUnwrap((0...(lying.count - 22)).reversed().first { lying[$0..<($0 + 4)].elementsEqual([0x50, 0x4B, 0x05, 0x06]) })
        lying.replaceSubrange((end + 12)..<(end + 16), with: [0xFF, 0xFF, 0xFF, 0x7F])  // the directory's size
        let cases: [(String, Data)] = [("cut.3mf", bytes.prefix(bytes.count / 2)), ("lying.3mf", lying), ("garbage.3mf", garbage),
                                       ("garbage.bgcode", garbage), ("garbage.gcode", garbage)]
        for (name, data) in cases {
            let url = folder.appendingPathComponent(name)
            try data.write(to: url)
            let header = PrintFileHeader.read(try PrintFile(url: url))
            XCTAssertNil(header.thumbnail, name)
            XCTAssertNil(header.printSeconds, name)
            XCTAssertTrue(header.plates.isEmpty, name)
        }
    }
}

/// SplitMix64: random numbers a test can repeat.
private struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
