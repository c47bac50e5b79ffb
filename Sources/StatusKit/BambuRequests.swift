import Foundation

/// The requests Layerwatch publishes to a Bambu printer's request topic (../shared/PROTOCOLS.md §4).
enum BambuRequests {
    /// Asks for a full report; sent once per connection.
    static let pushAll = #"{"pushing":{"sequence_id":"0","command":"pushall","version":1,"push_target":1}}"#

    /// Switches one light (`chamber_light`, or H2D's `chamber_light2`) on or off.
    static func light(node: String, on: Bool) -> String {
        let object: [String: Any] = ["system": [
            "sequence_id": "0", "command": "ledctrl", "led_node": node, "led_mode": on ? "on" : "off",
            "led_on_time": 500, "led_off_time": 500, "loop_times": 0, "interval_time": 0,
        ]]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
