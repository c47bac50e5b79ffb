import Foundation
import Glibc
import StreamKit

/// The file operations `ConfigStore` needs to never lose or half-write `printers.json`: reading with
/// the system's reason on failure, an atomic owner-only replace, and moving a bad file aside (or
/// keeping a copy of one partly read) under a name nothing else has.
enum SafeFile {
    /// A failed system call, with the path and the system's reason.
    struct Failure: Error, CustomStringConvertible {
        let operation: String
        let path: String
        let code: Int32

        init(_ operation: String, _ path: String, code: Int32 = errno) {
            self.operation = operation
            self.path = path
            self.code = code
        }

        var description: String {
            let reason = String(cString: strerror(code))
            // One whole sentence per operation, so a translation never has to fit a bare verb in.
            let format = switch operation {
            case "create": tr("cannot create %@: %@")
            case "flush": tr("cannot flush %@: %@")
            case "replace": tr("cannot replace %@: %@")
            case "inspect": tr("cannot inspect %@: %@")
            case "rename": tr("cannot rename %@: %@")
            case "write": tr("cannot write %@: %@")
            case "open": tr("cannot open %@: %@")
            default: "cannot \(operation) %@: %@"
            }
            return String(format: format, path, reason)
        }
    }

    /// Why a file could not be read, in words for the banner.
    struct Unreadable: Error, CustomStringConvertible {
        let description: String

        static func fromErrno() -> Unreadable { Unreadable(description: String(cString: strerror(errno)).lowercased()) }
    }

    /// True only when nothing at all is at `url`: a dangling link or an entry that cannot be
    /// inspected counts as present, so it is read (and fails) rather than written over.
    static func isAbsent(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) != 0 && errno == ENOENT
    }

    /// A printer list is a few KiB; a larger file is not one (and is never read into memory).
    static let maximumSize = 1 << 20

    /// The whole content of the regular file at `url`. Opened without blocking, so a FIFO or device
    /// in its place is refused at once instead of waiting for a writer; a regular file readable by
    /// others is made owner-only (it may hold codes).
    static func read(_ url: URL) throws -> Data {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { throw Unreadable.fromErrno() }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw Unreadable.fromErrno() }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw Unreadable(description: tr("it is a folder, not a file"))
        default: throw Unreadable(description: tr("it is not a regular file"))
        }
        // Another owner's file cannot be changed; reading it is still allowed.
        if status.st_mode & 0o077 != 0, status.st_uid == geteuid() { fchmod(fd, status.st_mode & 0o700) }
        guard status.st_size <= maximumSize else {
            throw Unreadable(description: String(format: tr("it is %ld MiB, far more than a printer list"),
                                                 Int(status.st_size / 1_048_576)))
        }
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Unreadable.fromErrno() }
            guard count > 0 else { return data }
            data.append(contentsOf: chunk[..<count])
        }
    }

    /// Replaces `url` with `data`: a new file created with mode 0600 next to it, written, flushed to
    /// disk, renamed over `url`, and the directory flushed. Readers see the old file or the new one,
    /// never a part; on failure the temporary file is removed and `url` is untouched.
    static func write(_ data: Data, to url: URL) throws {
        let directory = url.deletingLastPathComponent().path
        let temporary = "\(directory)/.\(url.lastPathComponent).\(UUID().uuidString).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure("create", temporary) }
        do {
            defer { close(fd) }
            try writeAll(data, to: fd, path: temporary)
            guard fsync(fd) == 0 else { throw Failure("flush", temporary) }
            guard rename(temporary, url.path) == 0 else { throw Failure("replace", url.path) }
        } catch {
            unlink(temporary)
            throw error
        }
        try syncDirectory(directory)
    }

    /// Renames `url` to `url` + `suffix`, or + `suffix-2`, `-3`… when that name is taken (see
    /// `freeName`), and returns the name used. Works for files and folders alike.
    static func moveAside(_ url: URL, suffix: String) throws -> URL {
        let kept = try freeName(for: url, suffix: suffix)
        guard rename(url.path, kept.path) == 0 else { throw Failure("rename", url.path) }
        makeOwnerOnly(kept.path)
        return kept
    }

    /// Writes `data` (what was read from `url`) as a new owner-only file named like `moveAside`'s,
    /// leaving `url` where it is, and returns the name used.
    static func copyAside(_ data: Data, of url: URL, suffix: String) throws -> URL {
        let kept = try freeName(for: url, suffix: suffix)
        try write(data, to: kept)
        return kept
    }

    /// `url` + `suffix`, or + `suffix-2`, `-3`… when that name is taken (each name checked just before).
    private static func freeName(for url: URL, suffix: String) throws -> URL {
        var attempt = 1
        while true {
            let candidate = URL(fileURLWithPath: url.path + suffix + (attempt == 1 ? "" : "-\(attempt)"))
            var status = stat()
            if lstat(candidate.path, &status) == 0 {
                attempt += 1
                continue
            }
            guard errno == ENOENT else { throw Failure("inspect", candidate.path) }
            return candidate
        }
    }

    /// Takes group and others' permissions off a file or folder kept aside (it may hold codes); a
    /// symbolic link is left alone, so nothing it points to changes.
    private static func makeOwnerOnly(_ path: String) {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_uid == geteuid() else { return }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG || type == S_IFDIR, status.st_mode & 0o077 != 0 else { return }
        chmod(path, status.st_mode & 0o700)
    }

    private static func writeAll(_ data: Data, to fd: Int32, path: String) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Failure("write", path)
                }
                offset += written
            }
        }
    }

    private static func syncDirectory(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure("open", path) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw Failure("flush", path) }
    }
}
