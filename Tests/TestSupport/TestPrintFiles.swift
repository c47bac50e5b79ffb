import Foundation

/// Files to send to a test printer, and the hash that shows a printer received one whole.
public enum TestPrintFiles {
    /// A file called `name` in `directory` of `bytes` lines of G-code-like text, each line numbered
    /// (so a byte lost or moved changes the hash).
    public static func make(_ name: String, in directory: URL, bytes: Int) throws -> URL {
        var text = Data()
        text.reserveCapacity(bytes + 64)
        var line = 0
        while text.count < bytes {
            text.append(contentsOf: "G1 X\(line % 220) Y\(line % 180) E\(line) ; line \(line)\n".utf8)
            line += 1
        }
        let url = directory.appendingPathComponent(name)
        try text.prefix(bytes).write(to: url)
        return url
    }

    /// A file called `name` of `bytes` bytes that takes no disk (sparse: zeros), for the large upload.
    public static func makeSparse(_ name: String, in directory: URL, bytes: Int64) throws -> URL {
        let url = directory.appendingPathComponent(name)
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(bytes))
        try handle.close()
        return url
    }

    /// The file's SHA-256 in hex (sha256sum's).
    public static func sha256(_ url: URL) throws -> String {
        let run = try CommandRun.run(URL(fileURLWithPath: "/usr/bin/sha256sum"), [url.path], timeout: 120)
        return String(run.stdout.prefix { !$0.isWhitespace })
    }
}
