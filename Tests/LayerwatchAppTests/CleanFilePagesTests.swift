import CLayerwatch
import Foundation
import XCTest

/// The background takes the pages of files it maps read-only and never changed out of its resident
/// set (`lw_release_clean_file_pages`): they go, what they hold reads back the same, and a mapping
/// with a page the process changed — relocated data made read-only, as the dynamic linker leaves
/// it — keeps its change.
final class CleanFilePagesTests: XCTestCase {
    private static let size = 8 << 20

    func testUnchangedPagesLeaveTheResidentSetAndReadBackTheSame() throws {
        let clean = try MappedFile(size: Self.size, pattern: 0x5A)
        let relocated = try MappedFile(size: 1 << 20, pattern: 0x11)
        relocated.change(at: 4096, to: 0x77)  // a copy of its own, then read-only
        XCTAssertEqual(clean.sum(), Self.size * 0x5A, "read whole: resident")
        XCTAssertEqual(clean.residentKilobytes(), Self.size / 1024)

        XCTAssertEqual(lw_release_clean_file_pages(), 0)

        XCTAssertEqual(clean.residentKilobytes(), 0, "its pages left the resident set")
        XCTAssertEqual(clean.sum(), Self.size * 0x5A, "and read back the same")
        XCTAssertGreaterThan(relocated.residentKilobytes() ?? 0, 0, "a mapping with a changed page is left whole")
        XCTAssertEqual(relocated.byte(at: 4096), 0x77, "its change kept")
        XCTAssertEqual(relocated.byte(at: 0), 0x11)
    }

    /// A temporary file of `size` bytes of `pattern`, mapped privately and read-only.
    private final class MappedFile {
        let address: UnsafeMutableRawPointer
        let size: Int
        private let url: URL

        init(size: Int, pattern: UInt8) throws {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("clean-pages-\(UUID().uuidString)")
            try Data(repeating: pattern, count: size).write(to: url)
            self.url = url
            let descriptor = open(url.path, O_RDONLY)
            guard descriptor >= 0 else { throw CocoaError(.fileReadUnknown) }
            defer { close(descriptor) }
            guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
                throw CocoaError(.fileReadUnknown)
            }
            address = mapped
            self.size = size
        }

        deinit {
            munmap(address, size)
            try? FileManager.default.removeItem(at: url)
        }

        /// Writes `value` at `offset` (the page becomes the process's own copy), then makes the
        /// mapping read-only again.
        func change(at offset: Int, to value: UInt8) {
            mprotect(address, size, PROT_READ | PROT_WRITE)
            address.storeBytes(of: value, toByteOffset: offset, as: UInt8.self)
            mprotect(address, size, PROT_READ)
        }

        func byte(at offset: Int) -> UInt8 { address.load(fromByteOffset: offset, as: UInt8.self) }

        func sum() -> Int {
            UnsafeRawBufferPointer(start: address, count: size).reduce(0) { $0 + Int($1) }
        }

        /// Its `Rss` in `/proc/self/smaps`.
        func residentKilobytes() -> Int? {
            let start = String(UInt(bitPattern: address), radix: 16)
            guard let data = FileHandle(forReadingAtPath: "/proc/self/smaps")?.readDataToEndOfFile() else { return nil }
            let smaps = String(decoding: data, as: UTF8.self)
            var inside = false
            for line in smaps.split(separator: "\n") {
                if let range = line.split(separator: " ").first, range.contains("-") {
                    inside = range.split(separator: "-").first.map { $0.drop { $0 == "0" } == start.drop { $0 == "0" } } ?? false
                } else if inside, line.hasPrefix("Rss:") {
                    return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
                }
            }
            return nil
        }
    }
}
