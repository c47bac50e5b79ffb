import Foundation

/// `Tests/Servers/webrtc_camera.py` as the WebRTC bench's camera: an aiortc peer answering WHEP on
/// loopback with the RTSP bench server's picture (the same clock blocks and corner marks, the same
/// size, frame rate and x264 preset) and serving the WHEP page Chromium plays. Each peer gets an
/// encoder of its own in this process, so the bench starts one camera per player run, and the
/// camera's CPU is that run's encoding. It exits when its stdin closes, so it never outlives the
/// bench.
final class WebRTCCamera: @unchecked Sendable {  // `events` is read and written under its lock
    let port: Int
    private let process = Process()
    private let stdin = Pipe()
    private let lock = NSLock()
    private var events: [[String: Any]] = []

    init(script: String, page: String) throws {
        let stdout = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, "--style", "whep", "--clock-blocks", "--screen-marks",
                             "--width", "\(BenchServer.width)", "--height", "\(BenchServer.height)", "--fps", "\(BenchServer.fps)",
                             "--preset", "ultrafast", "--page", page]
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        let reader = stdout.fileHandleForReading
        guard let line = reader.readLineData(), let ready = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
              let port = ready["port"] as? Int else {
            throw BenchError("webrtc_camera.py did not report ready")
        }
        self.port = port
        Thread.detachNewThread { [weak self] in  // offers, answers and ICE states as they come
            while let line = reader.readLineData() {
                guard let event = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else { continue }
                self?.lock.withLock { self?.events.append(event) }
            }
        }
    }

    /// The process encoding and sending (aiortc runs in it).
    var pid: Int32 { process.processIdentifier }

    /// The camera as Layerwatch takes it.
    var whepURL: String { "webrtc:http://127.0.0.1:\(port)/whep" }

    /// The WHEP page, for Chromium.
    var pageURL: String { "http://127.0.0.1:\(port)/" }

    /// The candidate addresses of every `event` ("offer": the player's, "answer": the camera's).
    func candidates(_ event: String) -> [String] {
        lock.withLock { events.filter { $0["event"] as? String == event }.flatMap { $0["candidates"] as? [String] ?? [] } }
    }

    func stop() {
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
