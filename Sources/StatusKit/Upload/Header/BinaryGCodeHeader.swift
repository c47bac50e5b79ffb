/// What a binary G-code (Prusa's `.bgcode`, as libbgcode's doc/specifications.md defines it) says
/// in the blocks before its G-code: the file header (`GCDE`, version 1, the checksum type), then
/// file, printer, print and slicer metadata (INI `key=value` lines, stored or deflated) and
/// thumbnail blocks (PNG, JPEG, QOI), each with a CRC-32 when the file header asks for one.
/// Reading stops at the first G-code block. A wrong checksum, an unknown block type or a file cut
/// short among these blocks says nothing: the file is damaged.
enum BinaryGCodeHeader {
    /// Far past PrusaSlicer's dozen blocks.
    static let mostBlocks = 64
    /// The largest metadata block read, inflated; larger ones are passed over unread.
    static let largestMetadata = 1024 * 1024

    private enum BlockType: Int {
        case fileMetadata = 0, gcode, slicerMetadata, printerMetadata, printMetadata, thumbnail
    }

    static func read(_ file: PrintFileBytes) -> PrintFileHeader {
        guard let start = file.exactly(at: 0, count: 10), start.starts(with: Array("GCDE".utf8)) else { return PrintFileHeader() }
        let fileHeader = LittleEndianBytes(start)
        guard fileHeader.u32(4) == 1, let checksumType = fileHeader.u16(8), checksumType <= 1 else { return PrintFileHeader() }
        let checksumSize = checksumType == 1 ? 4 : 0
        var summary = SlicerSummary()
        var thumbnails = EmbeddedThumbnails()
        var offset: Int64 = 10
        for _ in 0..<mostBlocks {
            guard offset < file.size else { break }  // a file without G-code: what it had
            let head = LittleEndianBytes(file.read(at: offset, count: 12))
            guard let typeValue = head.u16(0), let type = BlockType(rawValue: typeValue), let compression = head.u16(2),
                  compression <= 3, let uncompressedSize = head.u32(4) else { return PrintFileHeader() }
            if type == .gcode { break }
            let headerSize = compression == 0 ? 8 : 12
            guard let dataSize = compression == 0 ? uncompressedSize : head.u32(8) else { return PrintFileHeader() }
            let parametersSize = type == .thumbnail ? 6 : 2
            let payloadSize = parametersSize + dataSize
            let next = offset + Int64(headerSize + payloadSize + checksumSize)
            guard next <= file.size else { return PrintFileHeader() }
            defer { offset = next }
            let largest = type == .thumbnail ? EmbeddedThumbnails.largestBytes : largestMetadata
            guard dataSize <= largest, uncompressedSize <= largest else { continue }
            guard let block = file.exactly(at: offset, count: headerSize + payloadSize + checksumSize) else { return PrintFileHeader() }
            if checksumSize > 0 {
                let stored = LittleEndianBytes(Array(block.suffix(checksumSize))).u32(0)
                guard stored == Int(CRC32.of(Array(block.dropLast(checksumSize)))) else { return PrintFileHeader() }
            }
            let parameters = LittleEndianBytes(Array(block[headerSize..<(headerSize + parametersSize)]))
            let stored = Array(block[(headerSize + parametersSize)..<(headerSize + payloadSize)])
            let data: [UInt8]?
            switch compression {
            case 0: data = stored
            case 1: data = Inflater.inflated(stored, wrapping: .zlib, limit: uncompressedSize)
            default: data = nil  // Heatshrink, which PrusaSlicer gives G-code blocks only
            }
            guard let data, data.count == uncompressedSize else { continue }
            if type == .thumbnail {
                let formats: [Int: EmbeddedThumbnails.Format] = [0: .png, 1: .jpeg, 2: .qoi]
                if let format = parameters.u16(0).flatMap({ formats[$0] }) { thumbnails.add(format, bytes: data) }
            } else if parameters.u16(0) == 0 {  // INI
                for line in data.split(separator: 0x0A) {
                    guard let equals = line.firstIndex(of: 0x3D) else { continue }
                    summary.take(key: String(decoding: line[..<equals], as: UTF8.self),
                                 value: String(decoding: line[(equals + 1)...], as: UTF8.self))
                }
            }
        }
        var header = summary.header
        header.thumbnail = thumbnails.largest()
        return header
    }
}
