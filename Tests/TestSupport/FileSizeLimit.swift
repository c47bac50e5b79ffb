import Foundation

/// A full disk for this process, for a while: files written past `bytes` fail with EFBIG (the soft
/// RLIMIT_FSIZE, with SIGXFSZ ignored so the write fails rather than the process ending), as a
/// write to a full disk fails with ENOSPC. Everything this process writes meanwhile is limited.
public struct FileSizeLimit {
    public let bytes: Int

    public init(bytes: Int) {
        self.bytes = bytes
    }

    /// Runs `body` under the limit, then lifts it.
    public func during<T>(_ body: () throws -> T) rethrows -> T {
        var before = rlimit()
        getrlimit(Int32(RLIMIT_FSIZE.rawValue), &before)
        let handler = signal(SIGXFSZ, SIG_IGN)
        var limited = before
        limited.rlim_cur = rlim_t(bytes)
        setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limited)
        defer {
            setrlimit(Int32(RLIMIT_FSIZE.rawValue), &before)
            signal(SIGXFSZ, handler)
        }
        return try body()
    }
}
