import Foundation
import StreamKit

/// `Tests/Servers/rtsp_server.py` serving the bench stream: RTSPS with a printer's credentials,
/// 1920×1080 at 30 fps, the wall clock burnt into the pixels, encoded as `profile` says. An
/// `ffmpeg -c copy` client keeps the stream running from the start (as a printer's camera always
/// runs), so every measured player joins it warm. It exits when its stdin closes, so it never
/// outlives the bench.
final class BenchServer: @unchecked Sendable {  // `connectedClients` is read and written under its lock
    static let width = 1920, height = 1080, fps = 30
    let url: String
    let profile: StreamProfile
    private let process = Process()
    private let stdin = Pipe()
    /// The `ffmpeg -c copy` client keeping the stream running, and its process.
    private var keeper: (client: FFmpegClient, process: Process)?
    private let clientsLock = NSLock()
    private var connectedClients = 0

    /// The server's process id (its encoder runs in it).
    var pid: Int32 { process.processIdentifier }

    /// The clients connected now, as the server last told (the keeper is one of them).
    var clients: Int { clientsLock.withLock { connectedClients } }

    /// `extra`: more `rtsp_server.py` flags (the screen bench's `--screen-marks`, `--paths`).
    init(script: String, profile: StreamProfile, extra: [String] = []) throws {
        self.profile = profile
        let stdout = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, "--tls", "--user", "bblp", "--password", "12345678", "--clock-blocks",
                             "--width", "\(Self.width)", "--height", "\(Self.height)", "--fps", "\(Self.fps)"]
            + profile.serverArguments + extra
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
        Thread.detachNewThread { [weak self] in  // client events: how many are connected
            while let line = reader.readLineData() {
                guard let event = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
                      let clients = event["clients"] as? Int else { continue }
                self?.clientsLock.withLock { self?.connectedClients = clients }
            }
        }
        let client = FFmpegClient(url: url, tuned: false)
        keeper = (client, try client.startKeeper())
        Thread.sleep(forTimeInterval: 3)
    }

    func stop() {
        if let keeper { keeper.client.stop(keeper.process) }
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// How the bench server encodes, and when a connecting client gets its first keyframe.
enum StreamProfile: String, Codable, CaseIterable {
    /// x264 ultrafast (no deblocking, CAVLC): the cheapest H.264 there is to decode. One IDR a
    /// second; a client joins mid-GOP and waits for the next one.
    case ultrafast
    /// The same, but the encoder makes an IDR as soon as a client sends PLAY, as many cameras do.
    case keyframeOnPlay
    /// x264 superfast (CABAC and deblocking, as camera encoders produce) of the picture with
    /// sensor-like noise (0–7 grey levels on every pixel: a camera's picture is never still), so every
    /// macroblock carries detail, as a camera's does. One IDR a second.
    case cameraLike

    var serverArguments: [String] {
        switch self {
        case .ultrafast: return []
        case .keyframeOnPlay: return ["--keyframe-on-play"]
        case .cameraLike: return ["--preset", "superfast", "--noise", "7"]
        }
    }

    var label: String {
        switch self {
        case .ultrafast: return "ultrafast"
        case .keyframeOnPlay: return "ultrafast, IDR on PLAY"
        case .cameraLike: return "superfast + noise"
        }
    }
}

/// A failure that ends the bench, with what went wrong (passwords in URLs masked).
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = Redactor.scrubUserInfo(description) }
}
