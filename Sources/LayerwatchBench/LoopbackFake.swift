import Foundation

/// One of the test servers under `Tests/Servers` (a Moonraker, SDCP, Flashforge, PrusaLink or Bambu
/// fake, an MJPEG camera) run for a bench: started with its arguments, its `ready` line read (its
/// port and whatever else it announces), its events counted as they come under the labels
/// `classify` gives them (a status poll, a websocket opened, a camera stream), JSON commands sent
/// to its stdin. It exits when its stdin closes, so none outlives the bench.
final class LoopbackFake: @unchecked Sendable {  // `counted` is read and written under its lock
    let process: Process
    /// The `ready` event: `port`, and what the fake adds (`camera_port`, `serial`).
    let ready: [String: Any]
    private let stdin = Pipe()
    private let lock = NSLock()
    private var counted: [String: Int] = [:]

    /// Starts `Tests/Servers/SCRIPT` with `arguments`; `classify` names each event that counts.
    init(script: String, arguments: [String] = [], classify: @escaping @Sendable ([String: Any]) -> String?) throws {
        let stdout = Pipe()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["Tests/Servers/\(script)"] + arguments
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice  // a line per request
        try process.run()
        let reader = stdout.fileHandleForReading
        guard let line = reader.readLineData(), let ready = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
              ready["event"] as? String == "ready", ready["port"] is Int else { throw BenchError("\(script) did not report ready") }
        self.ready = ready
        Thread.detachNewThread { [weak self] in  // its events, counted
            while let line = reader.readLineData() {
                guard let event = try? JSONSerialization.jsonObject(with: line) as? [String: Any], let label = classify(event) else { continue }
                self?.lock.withLock { self?.counted[label, default: 0] += 1 }
            }
        }
    }

    var port: Int { ready["port"] as! Int }  // checked in init

    /// How many events of each label it has seen so far.
    var counts: [String: Int] { lock.withLock { counted } }

    /// User + system CPU seconds of its process tree (the Bambu fake's mosquitto broker included).
    var cpuSeconds: Double { ProcFS.treeCPUSeconds(root: process.processIdentifier) }

    /// Sends `command` as one JSON line on its stdin.
    func send(_ command: [String: Any]) throws {
        var line = try JSONSerialization.data(withJSONObject: command)
        line.append(10)
        try stdin.fileHandleForWriting.write(contentsOf: line)
    }

    /// Closes its stdin and waits for it to exit.
    func stop() {
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
