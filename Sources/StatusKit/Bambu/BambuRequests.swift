import Foundation

/// The requests Layerwatch publishes to a Bambu printer's request topic (../shared/PROTOCOLS.md §4, §9).
enum BambuRequests {
    /// Asks for a full report; sent once per connection.
    static let pushAll = #"{"pushing":{"sequence_id":"0","command":"pushall","version":1,"push_target":1}}"#

    /// A print command with its sequence id, which the printer's answer echoes:
    /// `{"print":{"command":"pause"|"resume"|"stop","sequence_id":"N"}}`, or `print_speed` with the
    /// profile's number as `param` (../shared/PROTOCOLS.md §9).
    static func print(_ command: PrintCommand, sequenceID: String) -> String {
        var object: [String: Any] = ["sequence_id": sequenceID, "command": name(of: command)]
        if case .speed(let speed) = command { object["param"] = String(speed.rawValue) }
        return json(["print": object])
    }

    /// The command's `print.command`, which the printer's answer echoes.
    static func name(of command: PrintCommand) -> String {
        switch command {
        case .pause: return "pause"
        case .resume: return "resume"
        case .stop: return "stop"
        case .speed: return "print_speed"
        case .printFile: return "project_file"
        }
    }

    private static func json(_ object: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// Switches one light (`chamber_light`, or H2D's `chamber_light2`) on or off.
    static func light(node: String, on: Bool) -> String {
        json(["system": [
            "sequence_id": "0", "command": "ledctrl", "led_node": node, "led_mode": on ? "on" : "off",
            "led_on_time": 500, "led_off_time": 500, "loop_times": 0, "interval_time": 0,
        ]])
    }
}
