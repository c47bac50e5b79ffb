import Foundation
import Glibc

/// A Unix socket that accepts connections and never says a word: a stand-in for a stuck bus.
final class SilentSocket {
    let path: String
    private let fd: Int32

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: path.utf8.prefix(buffer.count - 1))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 8) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    func close() { Glibc.close(fd) }
}
