import Foundation

/// `Tests/Servers/rtsp_server.py` serving the bench stream: RTSPS with a printer's credentials,
/// 1920×1080 at 30 fps, the wall clock burnt into the pixels. It exits when its stdin closes, so
/// it never outlives the bench.
final class BenchServer {
    static let width = 1920, height = 1080, fps = 30
    let url: String
    private let process = Process()
    private let stdin = Pipe()

    init(script: String) throws {
        let stdout = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, "--tls", "--user", "bblp", "--password", "12345678", "--clock-blocks",
                             "--width", "\(Self.width)", "--height", "\(Self.height)", "--fps", "\(Self.fps)"]
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        let reader = stdout.fileHandleForReading
        var line = Data()
        while let byte = try reader.read(upToCount: 1), let first = byte.first, first != 10 { line.append(first) }
        guard let ready = try JSONSerialization.jsonObject(with: line) as? [String: Any],
              let port = ready["port"] as? Int else {
            throw BenchError("rtsp_server.py did not report ready: \(String(decoding: line, as: UTF8.self))")
        }
        url = "rtsps://bblp:12345678@127.0.0.1:\(port)/streaming/live/1"
        Thread.detachNewThread { _ = try? reader.readToEnd() }  // client events: drained, not needed
    }

    func stop() {
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// A failure that ends the bench, with what went wrong.
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
