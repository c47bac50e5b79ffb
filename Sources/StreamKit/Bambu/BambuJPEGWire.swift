import CFFmpeg
import Foundation

/// The byte layout of a Bambu P1/A1 camera stream (PROTOCOLS.md §2), apart from the socket so it can
/// be checked on its own: the 80-byte auth packet the client sends, the 16-byte header before each
/// frame, and what a frame's payload must look like. All integers are u32 little-endian.
enum BambuJPEGWire {
    static let defaultPort = 6000
    static let user = "bblp"
    /// Bytes the auth packet has for the access code (NUL-padded).
    static let accessCodeCapacity = 32
    static let headerSize = 16
    /// The largest frame accepted. Real frames are 1280×720 JPEGs of tens of KiB; a header announcing
    /// more is garbage or hostile and is rejected before anything is allocated for it.
    static let maximumPayload = FrameLimits.maximumBytes
    /// A JPEG has at least its start and end markers.
    static let minimumPayload = 4

    /// `0x40, 0x3000, 0, 0`, then the user and the access code, each NUL-padded to 32 bytes.
    static func authPacket(accessCode: String) -> [UInt8] {
        precondition(accessCode.utf8.count <= accessCodeCapacity, "the parser admits no longer access code")
        var packet: [UInt8] = []
        packet.reserveCapacity(80)
        for word: UInt32 in [0x40, 0x3000, 0, 0] {
            withUnsafeBytes(of: word.littleEndian) { packet.append(contentsOf: $0) }
        }
        for text in [user, accessCode] {
            let bytes = Array(text.utf8)
            packet += bytes + [UInt8](repeating: 0, count: accessCodeCapacity - bytes.count)
        }
        return packet
    }

    /// The payload size a frame header announces: its first u32, all four bytes of it (one known
    /// client reads only three). Throws a protocol violation when no JPEG can have that size.
    static func payloadSize(header: [UInt8]) throws(FFmpegError) -> Int {
        precondition(header.count == headerSize)
        let size = header[0..<4].reversed().reduce(0) { $0 << 8 | Int($1) }
        guard size <= maximumPayload else {
            throw FFmpegError.protocolViolation(String(format: tr("a frame header announced %ld bytes, more than the %ld MiB limit"),
                                   size, maximumPayload >> 20))
        }
        guard size >= minimumPayload else {
            throw FFmpegError.protocolViolation(String(format: tr("a frame header announced %ld bytes, too few for a JPEG"), size))
        }
        return size
    }

    /// Whether a payload begins with the JPEG start-of-image marker `FF D8`.
    static func startsLikeJPEG(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && bytes[0] == 0xFF && bytes[1] == 0xD8
    }

    /// Whether a payload ends with the JPEG end-of-image marker `FF D9`.
    static func endsLikeJPEG(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 2 && bytes[bytes.count - 2] == 0xFF && bytes[bytes.count - 1] == 0xD9
    }
}
