/// Little-endian integers in bytes a file gave (binary G-code's blocks, a zip's records), each read
/// checked against the bytes' end: a truncated structure reads as nil, never past them.
struct LittleEndianBytes {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    func u16(_ offset: Int) -> Int? { value(offset, 2).map(Int.init) }

    func u32(_ offset: Int) -> Int? { value(offset, 4).map(Int.init) }

    /// Nil also past `Int64.max`, which no file offset or size reaches.
    func u64(_ offset: Int) -> Int64? { value(offset, 8).flatMap { $0 <= UInt64(Int64.max) ? Int64($0) : nil } }

    private func value(_ offset: Int, _ count: Int) -> UInt64? {
        guard offset >= 0, offset <= bytes.count - count else { return nil }
        return (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }
}
