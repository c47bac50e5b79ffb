import Foundation

/// The thumbnails a print file carries, as its slicer encoded them (PNG, JPEG, QOI), kept until
/// the largest that really is a picture is chosen: by the size its own bytes declare, not the size
/// its label claims. At most `most` are kept, each at most `largestBytes`, all at most `budget`.
struct EmbeddedThumbnails {
    enum Format {
        case png
        case jpeg
        case qoi

        /// The format and whether it begins (else ends) a G-code comment's thumbnail block:
        /// `thumbnail begin 300x300 12345`, `thumbnail end`, `thumbnail_JPG begin …`, `thumbnail_QOI end`.
        static func marker(_ content: ArraySlice<UInt8>) -> (Format, isBegin: Bool)? {
            guard content.count >= 13, content.starts(with: Array("thumbnail".utf8)) else { return nil }
            let text = String(decoding: content.prefix(24), as: UTF8.self)
            for (label, format) in [("thumbnail", Format.png), ("thumbnail_PNG", .png), ("thumbnail_JPG", .jpeg), ("thumbnail_QOI", .qoi)] {
                if text.hasPrefix(label + " begin ") { return (format, true) }
                if text == label + " end" { return (format, false) }
            }
            return nil
        }
    }

    static let most = 16
    /// Far past what slicers embed (a few hundred KiB at most).
    static let largestBytes = 3 * 1024 * 1024
    static let longestBase64 = largestBytes / 3 * 4
    static let budget = 8 * 1024 * 1024

    private var found: [(format: Format, bytes: [UInt8])] = []
    private var kept = 0

    mutating func add(_ format: Format, bytes: [UInt8]) {
        guard found.count < Self.most, !bytes.isEmpty, bytes.count <= Self.largestBytes, kept + bytes.count <= Self.budget else { return }
        found.append((format, bytes))
        kept += bytes.count
    }

    /// Base64 as G-code comments hold it; garbage is dropped.
    mutating func add(_ format: Format, base64: [UInt8]) {
        guard let bytes = Data(base64Encoded: Data(base64)) else { return }
        add(format, bytes: [UInt8](bytes))
    }

    /// The largest picture among them; a QOI picture re-encoded as PNG.
    func largest() -> PrintFileThumbnail? {
        found.compactMap { format, bytes -> PrintFileThumbnail? in
            guard format == .qoi else { return PrintFileThumbnail(encoded: bytes) }
            return QOIImage(bytes).flatMap { PrintFileThumbnail(encoded: $0.png()) }
        }.max { $0.pixels < $1.pixels }
    }
}
