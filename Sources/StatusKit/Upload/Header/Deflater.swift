import CZlib

/// zlib's compress: the IDAT of the PNG a QOI thumbnail becomes.
enum Deflater {
    static func compressed(_ bytes: [UInt8]) -> [UInt8] {
        var length = compressBound(UInt(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let result = output.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { compress2(target.baseAddress, &length, $0.baseAddress, UInt($0.count), 6) }
        }
        precondition(result == Z_OK, "compressBound gives room enough")
        return Array(output[0..<Int(length)])
    }
}
