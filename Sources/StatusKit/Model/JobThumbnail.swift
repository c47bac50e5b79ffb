import Foundation

/// The picture of the job a printer prints, as the printer serves it (a slicer's PNG or JPEG
/// thumbnail, through Moonraker or OctoPrint): what a printer watched without a camera shows. The
/// bytes are not decoded here: the app decodes those whose header declares a plausible size
/// (`pictureSize`), and bytes that are no picture give none.
public struct JobThumbnail: Equatable, Sendable {
    /// The largest side decoded: slicers embed a few hundred pixels, and a small file declaring a
    /// huge picture (a decompression bomb) must not take the memory it claims.
    public static let maximumSide = 2048

    /// The job it belongs to.
    public let job: String
    public let image: Data

    public init(job: String, image: Data) {
        self.job = job
        self.image = image
    }

    /// The size the picture's header declares (`pictureSize(of:)`).
    public var pictureSize: (width: Int, height: Int)? { Self.pictureSize(of: [UInt8](image)) }

    /// The width and height the PNG or JPEG in `bytes` declares, when both are from 1 to
    /// `maximumSide`; nil for anything else.
    static func pictureSize(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard let size = Self.pngSize(bytes) ?? Self.jpegSize(bytes) else { return nil }
        let sides = 1...Self.maximumSide
        return sides.contains(size.width) && sides.contains(size.height) ? size : nil
    }

    /// A PNG's IHDR: the signature, then the chunk's length and type, then width and height.
    private static func pngSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        return (bigEndian(bytes, 16, 4), bigEndian(bytes, 20, 4))
    }

    /// A JPEG's first start-of-frame segment (SOF0…SOF15 but DHT, JPG and DAC): height, then width.
    private static func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 9 <= bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }  // fill bytes
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { index += 2; continue }  // no length
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (bigEndian(bytes, index + 7, 2), bigEndian(bytes, index + 5, 2))
            }
            let length = bigEndian(bytes, index + 2, 2)
            guard length >= 2, marker != 0xD9, marker != 0xDA else { return nil }
            index += 2 + length
        }
        return nil
    }

    private static func bigEndian(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int {
        bytes[start..<(start + count)].reduce(0) { $0 << 8 | Int($1) }
    }
}
