import Foundation

/// A pipe the listening thread polls next to its sockets, so `stop()` (or a request to ask now)
/// wakes it at once instead of after a timeout.
final class DiscoveryWakeup {
    let readDescriptor: Int32
    private let writeDescriptor: Int32

    /// Nil with `errno` set when the process is out of descriptors.
    init?() {
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else { return nil }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, O_NONBLOCK)
        }
    }

    deinit {
        close(readDescriptor)
        close(writeDescriptor)
    }

    func signal() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Reads every signal written so far, so the next poll waits for a new one.
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readDescriptor, &bytes, bytes.count) > 0 {}
    }
}
