import Foundation

/// The requests Layerwatch publishes to a Bambu printer's request topic (../shared/PROTOCOLS.md §4, §9).
enum BambuRequests {
    /// Asks for a full report; sent once per connection.
    static let pushAll = #"{"pushing":{"sequence_id":"0","command":"pushall","version":1,"push_target":1}}"#

    /// A print command with its sequence id, which the printer's answer echoes:
    /// `{"print":{"command":"pause"|"resume"|"stop","sequence_id":"N"}}`, or `print_speed` with the
    /// profile's number as `param` (../shared/PROTOCOLS.md §9).
    static func print(_ command: PrintCommand, sequenceID: String) -> String {
        var object: [String: Any] = ["sequence_id": sequenceID]
        switch command {
        case .pause: object["command"] = "pause"
        case .resume: object["command"] = "resume"
        case .stop: object["command"] = "stop"
        case .speed(let speed):
            object["command"] = "print_speed"
            object["param"] = String(speed.rawValue)
        }
        return json(["print": object])
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
