import CZlib

/// The CRC-32 of zip entries, PNG chunks and binary G-code blocks (zlib's).
enum CRC32 {
    static func of(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(crc32(UInt(crc), $0.baseAddress, UInt32($0.count))) }
    }
}
