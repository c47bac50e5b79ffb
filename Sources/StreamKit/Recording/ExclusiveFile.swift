import CFFmpeg
import Foundation

/// A file this process made itself, for what it saves for the user (recordings, timelapse videos,
/// snapshots): created with O_CREAT|O_EXCL|O_NOFOLLOW, so nothing already at its name (a file, a
/// folder, a symbolic link, dangling or not) is ever written over or through. A taken name is
/// passed over for the next free one like it ("name (2).ext"). It is written through its own
/// descriptor (by FFmpeg's muxers through `io`), and `discard` removes it again when what was
/// written is not worth keeping. `makeFolder` makes the app's own folders it goes into.
public final class ExclusiveFile {
    /// Why the file could not be made or written: the path and the system's error number.
    public struct Failure: LocalizedError, CustomStringConvertible {
        public let path: String
        public let code: Int32

        /// The system's words for the error ("No space left on device").
        public var reason: String { String(cString: strerror(code)) }
        public var description: String {
            // TRANSLATORS: a file's path and the system's reason it could not be made or written.
            String(format: tr("“%@”: %@"), path, reason)
        }
        public var errorDescription: String? { description }
        /// The disk, the user's quota or the largest file allowed is full.
        public var isDiskFull: Bool { Self.diskFullCodes.contains(code) }

        /// Whether FFmpeg's error `code` (AVERROR of an error number) is a full disk's.
        static func isDiskFull(averror code: Int32) -> Bool { diskFullCodes.contains { lw_averror($0) == code } }

        /// The error numbers of a full disk.
        private static let diskFullCodes: Set<Int32> = [ENOSPC, EDQUOT, EFBIG]
    }

    /// Where the file is: the free name it was made under.
    public let url: URL
    /// Bytes in the file: the end of the last write that reached it.
    public private(set) var size: Int64 = 0
    private var descriptor: Int32
    /// The file's device and inode, to know it again at its name.
    private let identity: (device: UInt, inode: UInt)
    private var context: UnsafeMutablePointer<AVIOContext>?
    /// The names tried before giving up (`EEXIST`).
    static let namesTried = 1000

    private init(url: URL, descriptor: Int32) {
        self.url = url
        self.descriptor = descriptor
        var made = stat()
        fstat(descriptor, &made)
        identity = (UInt(made.st_dev), UInt(made.st_ino))
    }

    deinit {
        try? close()
    }

    /// Creates the first free name among `url` ("name.ext"), "name (2).ext", "name (3).ext"…; a
    /// name something else holds is never opened.
    public static func create(freeNameLike url: URL) throws(Failure) -> ExclusiveFile {
        for number in 1...namesTried {
            let candidate = numbered(url, number)
            let descriptor = open(candidate.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            if descriptor >= 0 { return ExclusiveFile(url: candidate, descriptor: descriptor) }
            if errno != EEXIST { throw Failure(path: candidate.path, code: errno) }
        }
        throw Failure(path: url.path, code: EEXIST)
    }

    /// Makes `folder`, and the folders above it that are missing (the app's folders in the user's
    /// Pictures and Videos), with the system's reason when it cannot.
    public static func makeFolder(_ folder: URL) throws(Failure) {
        if mkdir(folder.path, 0o777) == 0 || errno == EEXIST { return }
        guard errno == ENOENT, folder.path != "/" else { throw Failure(path: folder.path, code: errno) }
        try makeFolder(folder.deletingLastPathComponent())
        if mkdir(folder.path, 0o777) == 0 || errno == EEXIST { return }
        throw Failure(path: folder.path, code: errno)
    }

    /// `url` itself for 1, else "name (N).ext".
    static func numbered(_ url: URL, _ number: Int) -> URL {
        guard number > 1 else { return url }
        let stem = url.deletingPathExtension().lastPathComponent, fileExtension = url.pathExtension
        let name = fileExtension.isEmpty ? "\(stem) (\(number))" : "\(stem) (\(number)).\(fileExtension)"
        return url.deletingLastPathComponent().appendingPathComponent(name)
    }

    /// Writes all of `bytes` at the file's current position.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        var done = 0
        while done < bytes.count {
            let result = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw Failure(path: url.path, code: result < 0 ? errno : EIO) }
            done += result
            size = max(size, Int64(lseek(descriptor, 0, SEEK_CUR)))
        }
    }

    /// An AVIOContext writing to the file and seeking in it, for a muxer (its format context
    /// must have AVFMT_FLAG_CUSTOM_IO); it lives as long as the file is open.
    public var io: UnsafeMutablePointer<AVIOContext>? {
        if context == nil, descriptor >= 0 {
            let size: Int32 = 64 * 1024
            guard let buffer = av_malloc(Int(size)) else { return nil }
            context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), size, 1, Unmanaged.passUnretained(self).toOpaque(), nil, { opaque, data, count in
                let file = Unmanaged<ExclusiveFile>.fromOpaque(opaque!).takeUnretainedValue()
                do throws(Failure) {
                    try file.write(UnsafeRawBufferPointer(start: UnsafeRawPointer(data), count: Int(count)))
                    return count
                } catch {
                    return lw_averror(error.code)
                }
            }, { opaque, offset, whence in
                let file = Unmanaged<ExclusiveFile>.fromOpaque(opaque!).takeUnretainedValue()
                if whence & AVSEEK_SIZE != 0 {
                    var about = stat()
                    return fstat(file.descriptor, &about) == 0 ? Int64(about.st_size) : Int64(lw_averror(errno))
                }
                let position = lseek(file.descriptor, off_t(offset), whence & ~AVSEEK_FORCE)
                return position >= 0 ? Int64(position) : Int64(lw_averror(errno))
            })
            if context == nil { av_free(buffer) }
        }
        return context
    }

    /// Writes what `io` holds and closes the file; throws when that write or the close failed.
    /// Safe to call more than once.
    public func close() throws(Failure) {
        var failure: Failure?
        if let context {
            avio_flush(context)
            if context.pointee.error < 0 { failure = Failure(path: url.path, code: -context.pointee.error) }
            av_freep(&self.context!.pointee.buffer)
            avio_context_free(&self.context)
        }
        if descriptor >= 0 {
            if Glibc.close(descriptor) != 0, failure == nil { failure = Failure(path: url.path, code: errno) }
            descriptor = -1
        }
        if let failure { throw failure }
    }

    /// Closes the file and removes it, if its name still names it (nothing put there since is touched).
    public func discard() {
        try? close()
        var there = stat()
        guard lstat(url.path, &there) == 0, UInt(there.st_dev) == identity.device, UInt(there.st_ino) == identity.inode else { return }
        unlink(url.path)
    }
}
