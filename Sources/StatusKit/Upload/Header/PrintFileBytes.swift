import Foundation
import Glibc

/// A print file opened for the header's few reads at chosen places (its head, its tail, a block,
/// a zip entry): it is never read whole, so a 300 MB file costs what those places cost.
final class PrintFileBytes {
    /// Its size when opened.
    let size: Int64
    private let descriptor: Int32

    init?(url: URL) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        size = Int64(status.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// Up to `count` bytes from `offset`: fewer at the file's end or when it cannot be read.
    func read(at offset: Int64, count: Int) -> [UInt8] {
        guard offset >= 0, offset < size, count > 0 else { return [] }
        let wanted = Int(min(Int64(count), size - offset))
        var bytes = [UInt8](repeating: 0, count: wanted)
        var done = 0
        while done < wanted {
            let got = bytes.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, wanted - done, off_t(offset) + off_t(done))
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            done += got
        }
        return done == wanted ? bytes : Array(bytes[0..<done])
    }

    /// Exactly `count` bytes from `offset`, or nil.
    func exactly(at offset: Int64, count: Int) -> [UInt8]? {
        let bytes = read(at: offset, count: count)
        return bytes.count == count ? bytes : nil
    }
}
