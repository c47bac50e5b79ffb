/// A QOI picture ("Quite OK Image", qoiformat.org), which PrusaSlicer embeds for Prusa's printers
/// and GdkTexture cannot load: decoded to RGBA here, then given as PNG (`png()`). A picture larger
/// than `JobThumbnail.maximumSide` or cut short decodes to nothing.
struct QOIImage {
    let width: Int
    let height: Int
    /// Four bytes a pixel, row by row.
    let rgba: [UInt8]

    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 14, bytes.starts(with: Array("qoif".utf8)) else { return nil }
        let bigEndian = { (at: Int) in bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        width = bigEndian(4)
        height = bigEndian(8)
        let sides = 1...JobThumbnail.maximumSide
        guard sides.contains(width), sides.contains(height), [3, 4].contains(bytes[12]), bytes[13] <= 1 else { return nil }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var seen = [UInt8](repeating: 0, count: 64 * 4)
        var pixel: (r: UInt8, g: UInt8, b: UInt8, a: UInt8) = (0, 0, 0, 255)
        var position = 14, run = 0
        for index in 0..<(width * height) {
            if run > 0 {
                run -= 1
            } else {
                guard position < bytes.count else { return nil }
                let op = bytes[position]
                position += 1
                switch op {
                case 0xFE, 0xFF:
                    let count = op == 0xFE ? 3 : 4
                    guard position + count <= bytes.count else { return nil }
                    pixel.r = bytes[position]; pixel.g = bytes[position + 1]; pixel.b = bytes[position + 2]
                    if count == 4 { pixel.a = bytes[position + 3] }
                    position += count
                case let op where op & 0xC0 == 0x00:
                    let slot = Int(op) * 4
                    pixel = (seen[slot], seen[slot + 1], seen[slot + 2], seen[slot + 3])
                case let op where op & 0xC0 == 0x40:
                    pixel.r &+= (op >> 4 & 3) &- 2
                    pixel.g &+= (op >> 2 & 3) &- 2
                    pixel.b &+= (op & 3) &- 2
                case let op where op & 0xC0 == 0x80:
                    guard position < bytes.count else { return nil }
                    let second = bytes[position]
                    position += 1
                    let green = (op & 0x3F) &- 32
                    pixel.r &+= green &- 8 &+ (second >> 4 & 0x0F)
                    pixel.g &+= green
                    pixel.b &+= green &- 8 &+ (second & 0x0F)
                default:
                    run = Int(op & 0x3F)
                }
                let slot = (Int(pixel.r) * 3 + Int(pixel.g) * 5 + Int(pixel.b) * 7 + Int(pixel.a) * 11) % 64 * 4
                seen[slot] = pixel.r; seen[slot + 1] = pixel.g; seen[slot + 2] = pixel.b; seen[slot + 3] = pixel.a
            }
            pixels[index * 4] = pixel.r; pixels[index * 4 + 1] = pixel.g
            pixels[index * 4 + 2] = pixel.b; pixels[index * 4 + 3] = pixel.a
        }
        rgba = pixels
    }

    /// The picture as a PNG (8-bit RGBA, unfiltered rows, zlib-compressed).
    func png() -> [UInt8] {
        var rows = [UInt8]()
        rows.reserveCapacity(height * (width * 4 + 1))
        for row in 0..<height {
            rows.append(0)  // filter: none
            rows.append(contentsOf: rgba[(row * width * 4)..<((row + 1) * width * 4)])
        }
        var header = [UInt8]()
        for side in [width, height] { header += (0..<4).map { UInt8(truncatingIfNeeded: side >> (24 - 8 * $0)) } }
        header += [8, 6, 0, 0, 0]  // 8 bits, RGBA, deflate, adaptive filtering, no interlace
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + Self.chunk("IHDR", header) + Self.chunk("IDAT", Deflater.compressed(rows)) + Self.chunk("IEND", [])
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        let bigEndian = { (value: Int) in (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        return bigEndian(data.count) + typed + bigEndian(Int(CRC32.of(typed)))
    }
}
