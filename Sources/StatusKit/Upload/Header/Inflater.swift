import CZlib

/// zlib's inflate with a ceiling on what it gives: a deflate stream from a file (a binary G-code's
/// metadata, a 3MF's entry) fed in pieces, stopped as soon as it would give more than `limit`
/// bytes, so a zip bomb costs `limit` and no more.
final class Inflater {
    /// A zlib stream (RFC 1950: binary G-code) or bare deflate (RFC 1951: zip entries).
    enum Wrapping {
        case zlib
        case raw
    }

    enum Progress: Equatable {
        /// The stream wants more input.
        case needsMore
        /// The stream ended; `output` is all of it.
        case finished
        /// `limit` bytes are out and the stream goes on.
        case full
        /// Not deflate, or damaged.
        case broken
    }

    private(set) var output: [UInt8] = []
    private let limit: Int
    private var stream = z_stream()
    private var ended = false

    init?(wrapping: Wrapping, limit: Int) {
        self.limit = limit
        let windowBits: Int32 = wrapping == .zlib ? 15 : -15
        guard inflateInit2_(&stream, windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
    }

    deinit {
        inflateEnd(&stream)
    }

    /// Inflates `input`, the stream's next bytes.
    func feed(_ input: [UInt8]) -> Progress {
        guard !ended else { return .finished }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return input.withUnsafeBufferPointer { source -> Progress in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = UInt32(source.count)
            while true {
                let room = min(chunk.count, limit - output.count + 1)  // one byte more tells an overflow
                let result = chunk.withUnsafeMutableBufferPointer { target -> Int32 in
                    stream.next_out = target.baseAddress
                    stream.avail_out = UInt32(room)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = room - Int(stream.avail_out)
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit {
                    output.removeLast(output.count - limit)
                    return .full
                }
                switch result {
                case Z_STREAM_END:
                    ended = true
                    return .finished
                case Z_OK:
                    if stream.avail_in == 0 && stream.avail_out > 0 { return .needsMore }
                case Z_BUF_ERROR:
                    return .needsMore  // no progress possible without more input
                default:
                    return .broken
                }
            }
        }
    }

    /// All of `input` inflated, when it is one whole stream of at most `limit` bytes.
    static func inflated(_ input: [UInt8], wrapping: Wrapping, limit: Int) -> [UInt8]? {
        guard let inflater = Inflater(wrapping: wrapping, limit: limit), inflater.feed(input) == .finished else { return nil }
        return inflater.output
    }
}
