import Foundation

/// The loopback Klipper printers of the background bench: one `Tests/Servers/moonraker_server.py`
/// per printer, each told it is printing (a file, progress, layers, heaters at temperature), so
/// Layerwatch watches a print's status on each. It counts the requests each one answers, the status
/// polls (`/printer/objects/query`, which go on in the background) apart from the others, and gives
/// their CPU.
final class MoonrakerPrinters {
    private let fakes: [LoopbackFake]

    /// Requests a printer answered: status polls, and anything else (Spoolman's spool, …).
    struct Requests {
        var polls = 0
        var others = 0
    }

    init(count: Int) throws {
        fakes = try (0..<count).map { _ in
            try LoopbackFake(script: "moonraker_server.py") { event in
                guard event["event"] as? String == "request" else { return nil }
                return (event["path"] as? String)?.hasPrefix("/printer/objects/query") == true ? "poll" : "other"
            }
        }
        for (index, fake) in fakes.enumerated() { try fake.send(Self.printing(layer: 40 + index)) }
    }

    var ports: [Int] { fakes.map(\.port) }

    /// The requests each printer has answered so far.
    var requests: [Requests] { fakes.map { Requests(polls: $0.counts["poll"] ?? 0, others: $0.counts["other"] ?? 0) } }

    /// User + system CPU seconds of the servers.
    var cpuSeconds: Double { fakes.map(\.cpuSeconds).reduce(0, +) }

    func stop() { fakes.forEach { $0.stop() } }

    /// A print under way at `layer` of 120: what `print_stats`, `display_status` and
    /// `virtual_sdcard` say during a Klipper print.
    private static func printing(layer: Int) -> [String: Any] {
        let progress = Double(layer) / 120
        return ["cmd": "set", "status": [
            "print_stats": ["state": "printing", "filename": "benchy.gcode", "print_duration": 3600.0, "total_duration": 3700.0,
                            "filament_used": 4200.0, "info": ["total_layer": 120, "current_layer": layer]],
            "display_status": ["progress": progress],
            "virtual_sdcard": ["file_path": "/home/pi/printer_data/gcodes/benchy.gcode", "progress": progress, "is_active": true],
            "extruder": ["temperature": 215.0, "target": 215.0, "power": 0.4],
            "heater_bed": ["temperature": 60.0, "target": 60.0, "power": 0.2],
        ]]
    }
}
