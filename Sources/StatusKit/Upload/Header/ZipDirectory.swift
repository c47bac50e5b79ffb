/// The central directory of a zip (a 3MF is one), read from its end record without reading the
/// entries themselves, Zip64 included; and one entry's bytes, stored or deflated, inflated no
/// further than asked. Everything it reads is bounded: the end record's search, the directory's
/// size and entry count, each entry's output.
struct ZipDirectory {
    struct Entry {
        let name: String
        let method: Int
        let crc: UInt32
        let compressedSize: Int64
        let uncompressedSize: Int64
        let localHeaderOffset: Int64
    }

    /// Far past the few hundred entries of a slicer's project.
    static let mostEntries = 20_000
    static let largestDirectory = 4 * 1024 * 1024

    private let file: PrintFileBytes
    /// The entries whose names `wanted` accepted, by name.
    let entries: [String: Entry]

    /// The directory of the zip `file` is, keeping the entries `wanted` accepts; nil when it is no
    /// zip, or its directory is damaged or past the bounds.
    init?(_ file: PrintFileBytes, wanted: (String) -> Bool) {
        self.file = file
        // The end record: 22 bytes and a comment of up to 65535, at the file's end.
        let tailStart = max(0, file.size - 22 - 65535)
        let tail = file.read(at: tailStart, count: Int(file.size - tailStart))
        guard tail.count >= 22, let end = (0...(tail.count - 22)).reversed().first(where: {
            tail[$0] == 0x50 && tail[$0 + 1] == 0x4B && tail[$0 + 2] == 0x05 && tail[$0 + 3] == 0x06
        }) else { return nil }
        let record = LittleEndianBytes(Array(tail[end..<(end + 22)]))
        guard var count = record.u16(10).map(Int64.init), var size = record.u32(12).map(Int64.init),
              var offset = record.u32(16).map(Int64.init) else { return nil }
        if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
            // Zip64: a locator just before the end record points at the Zip64 end record.
            let locatorAt = tailStart + Int64(end) - 20
            guard locatorAt >= 0, let locator = file.exactly(at: locatorAt, count: 20), locator.starts(with: [0x50, 0x4B, 0x06, 0x07]),
                  let recordAt = LittleEndianBytes(locator).u64(8),
                  let zip64 = file.exactly(at: recordAt, count: 56), zip64.starts(with: [0x50, 0x4B, 0x06, 0x06]) else { return nil }
            let fields = LittleEndianBytes(zip64)
            guard let total = fields.u64(32), let directorySize = fields.u64(40), let directoryOffset = fields.u64(48) else { return nil }
            (count, size, offset) = (total, directorySize, directoryOffset)
        }
        guard count <= Int64(Self.mostEntries), size <= Int64(Self.largestDirectory), (0...file.size).contains(offset), size <= file.size - offset,
              let directory = file.exactly(at: offset, count: Int(size)) else { return nil }
        var entries: [String: Entry] = [:]
        var at = 0
        let bytes = LittleEndianBytes(directory)
        for _ in 0..<count {
            guard directory.count >= at + 46, directory[at..<(at + 4)].elementsEqual([0x50, 0x4B, 0x01, 0x02]),
                  let flags = bytes.u16(at + 8), let method = bytes.u16(at + 10), let crc = bytes.u32(at + 16),
                  let compressed32 = bytes.u32(at + 20), let uncompressed32 = bytes.u32(at + 24),
                  let nameLength = bytes.u16(at + 28), let extraLength = bytes.u16(at + 30), let commentLength = bytes.u16(at + 32),
                  let offset32 = bytes.u32(at + 42) else { return nil }
            let nameStart = at + 46, extraStart = nameStart + nameLength
            let next = extraStart + extraLength + commentLength
            guard next <= directory.count else { return nil }
            let name = String(decoding: directory[nameStart..<extraStart], as: UTF8.self)
            at = next
            guard flags & 1 == 0, wanted(name) else { continue }  // encrypted entries are not read
            // Zip64's extra field holds, in this order, each of the three that is 0xFFFFFFFF.
            var values = [uncompressed32, compressed32, offset32].map(Int64.init)
            if values.contains(0xFFFF_FFFF) {
                guard let extended = Self.zip64Extra(LittleEndianBytes(Array(directory[extraStart..<(extraStart + extraLength)]))) else { return nil }
                var index = 0
                for field in 0..<3 where values[field] == 0xFFFF_FFFF {
                    guard let value = extended.u64(index * 8) else { return nil }
                    values[field] = value
                    index += 1
                }
            }
            entries[name] = Entry(name: name, method: method, crc: UInt32(crc), compressedSize: values[1],
                                  uncompressedSize: values[0], localHeaderOffset: values[2])
        }
        self.entries = entries
    }

    /// The data of the Zip64 extended information field (id 1) among an entry's extra fields.
    private static func zip64Extra(_ extra: LittleEndianBytes) -> LittleEndianBytes? {
        var at = 0
        while let id = extra.u16(at), let size = extra.u16(at + 2) {
            guard at + 4 + size <= extra.bytes.count else { return nil }
            if id == 1 { return LittleEndianBytes(Array(extra.bytes[(at + 4)..<(at + 4 + size)])) }
            at += 4 + size
        }
        return nil
    }

    /// All of `entry`'s bytes when they are at most `limit` and whole (its CRC-32 checked); nil else.
    func contents(of entry: Entry, limit: Int) -> [UInt8]? {
        guard entry.uncompressedSize <= Int64(limit),
              let bytes = read(entry, limit: Int(entry.uncompressedSize), whole: true),
              Int64(bytes.count) == entry.uncompressedSize, CRC32.of(bytes) == entry.crc else { return nil }
        return bytes
    }

    /// The first `count` bytes of `entry` (fewer when it is shorter), the rest never inflated:
    /// the head of a large entry.
    func head(of entry: Entry, count: Int) -> [UInt8]? {
        read(entry, limit: count, whole: false)
    }

    private func read(_ entry: Entry, limit: Int, whole: Bool) -> [UInt8]? {
        guard let local = file.exactly(at: entry.localHeaderOffset, count: 30), local.starts(with: [0x50, 0x4B, 0x03, 0x04]),
              let nameLength = LittleEndianBytes(local).u16(26), let extraLength = LittleEndianBytes(local).u16(28) else { return nil }
        let start = entry.localHeaderOffset + 30 + Int64(nameLength + extraLength)
        guard entry.compressedSize <= file.size - start else { return nil }
        switch entry.method {
        case 0:
            let count = Int(min(entry.compressedSize, Int64(limit)))
            return file.exactly(at: start, count: count)
        case 8:
            guard let inflater = Inflater(wrapping: .raw, limit: limit) else { return nil }
            var at = start
            let end = start + entry.compressedSize
            while at < end {
                let piece = file.read(at: at, count: Int(min(64 * 1024, end - at)))
                guard !piece.isEmpty else { return nil }
                at += Int64(piece.count)
                switch inflater.feed(piece) {
                case .needsMore: continue
                case .finished: return inflater.output
                case .full: return whole ? nil : inflater.output
                case .broken: return nil
                }
            }
            return whole ? nil : inflater.output
        default:
            return nil
        }
    }
}
