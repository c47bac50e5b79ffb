import Foundation

/// The loopback Klipper printers of the background bench: one `Tests/Servers/moonraker_server.py`
/// per printer, each told it is printing (a file, progress, layers, heaters at temperature), so
/// Layerwatch watches a print's status on each. It counts the requests each one answers, the status
/// polls (`/printer/objects/query`, which go on in the background) apart from the others, and gives
/// its processes for their CPU. Each server exits when
/// its stdin closes, so none outlives the bench.
final class MoonrakerPrinters: @unchecked Sendable {  // `answered` is read and written under its lock
    let ports: [Int]
    let processes: [Process]
    private let stdins: [Pipe]
    private let lock = NSLock()
    private var answered: [Requests]

    /// Requests a printer answered: status polls, and anything else (Spoolman's spool, …).
    struct Requests {
        var polls = 0
        var others = 0
    }

    init(count: Int, script: String) throws {
        var ports: [Int] = [], processes: [Process] = [], stdins: [Pipe] = [], readers: [FileHandle] = []
        for _ in 0..<count {
            let stdin = Pipe(), stdout = Pipe()
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = [script]
            process.standardInput = stdin
            process.standardOutput = stdout
            process.standardError = FileHandle.nullDevice  // a line per request
            try process.run()
            processes.append(process)
            stdins.append(stdin)
            let reader = stdout.fileHandleForReading
            guard let line = reader.readLineData(), let ready = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
                  let port = ready["port"] as? Int else { throw BenchError("moonraker_server.py did not report ready") }
            ports.append(port)
            readers.append(reader)
        }
        self.ports = ports
        self.processes = processes
        self.stdins = stdins
        answered = Array(repeating: Requests(), count: count)
        for (index, reader) in readers.enumerated() {
            Thread.detachNewThread { [weak self] in  // its events: every request, counted
                while let line = reader.readLineData() {
                    let text = String(decoding: line, as: UTF8.self)
                    guard text.contains("\"event\":\"request\"") else { continue }
                    let poll = text.contains("\"path\":\"/printer/objects/query")
                    self?.lock.withLock { poll ? (self?.answered[index].polls += 1) : (self?.answered[index].others += 1) }
                }
            }
        }
        for (index, stdin) in stdins.enumerated() { try Self.setPrinting(stdin, layer: 40 + index) }
    }

    /// The requests each printer has answered so far.
    var requests: [Requests] { lock.withLock { answered } }

    /// User + system CPU seconds of the servers.
    var cpuSeconds: Double { processes.compactMap { ProcFS.cpuSeconds(pid: $0.processIdentifier) }.reduce(0, +) }

    func stop() {
        stdins.forEach { try? $0.fileHandleForWriting.close() }
        processes.forEach { $0.waitUntilExit() }
    }

    /// A print under way at `layer` of 120: what `print_stats`, `display_status` and
    /// `virtual_sdcard` say during a Klipper print.
    private static func setPrinting(_ stdin: Pipe, layer: Int) throws {
        let progress = Double(layer) / 120
        let command: [String: Any] = ["cmd": "set", "status": [
            "print_stats": ["state": "printing", "filename": "benchy.gcode", "print_duration": 3600.0, "total_duration": 3700.0,
                            "filament_used": 4200.0, "info": ["total_layer": 120, "current_layer": layer]],
            "display_status": ["progress": progress],
            "virtual_sdcard": ["file_path": "/home/pi/printer_data/gcodes/benchy.gcode", "progress": progress, "is_active": true],
            "extruder": ["temperature": 215.0, "target": 215.0, "power": 0.4],
            "heater_bed": ["temperature": 60.0, "target": 60.0, "power": 0.2],
        ]]
        var line = try JSONSerialization.data(withJSONObject: command)
        line.append(10)
        try stdin.fileHandleForWriting.write(contentsOf: line)
    }
}
