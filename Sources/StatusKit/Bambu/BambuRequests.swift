import Foundation

/// The requests Layerwatch publishes to a Bambu printer's request topic (../shared/PROTOCOLS.md §4, §9).
enum BambuRequests {
    /// Asks for a full report; sent once per connection.
    static let pushAll = #"{"pushing":{"sequence_id":"0","command":"pushall","version":1,"push_target":1}}"#

    /// A print command with its sequence id, which the printer's answer echoes:
    /// `{"print":{"command":"pause"|"resume"|"stop","sequence_id":"N"}}`, `print_speed` with the
    /// profile's number as `param` (../shared/PROTOCOLS.md §9), or `project_file` (§14).
    static func print(_ command: PrintCommand, sequenceID: String) -> String {
        var object: [String: Any] = ["sequence_id": sequenceID, "command": name(of: command)]
        switch command {
        case .speed(let speed): object["param"] = String(speed.rawValue)
        case .printFile(let name, let plate): object.merge(projectFile(name, plate: plate)) { $1 }
        case .pause, .resume, .stop: break
        }
        return json(["print": object])
    }

    /// `project_file`'s fields for the project `name` at the storage's root, its plate `plate`:
    /// the plate's G-code inside the 3MF, the file's `ftp://` address, the job's name, and the
    /// options ha-bambulab sends with them (greghesp/ha-bambulab, pybambu/commands.py,
    /// PRINT_PROJECT_FILE_TEMPLATE): the bed type the project says, no timelapse, bed levelling and
    /// the calibrations on, the external spool rather than the AMS, no cloud project or task.
    static func projectFile(_ name: String, plate: Int) -> [String: Any] {
        ["param": "Metadata/plate_\(plate).gcode", "url": "ftp://\(name)", "subtask_name": BambuUpload.jobName(name),
         "bed_type": "auto", "timelapse": false, "bed_leveling": true, "flow_cali": true, "vibration_cali": true,
         "layer_inspect": true, "use_ams": false, "ams_mapping": [0],
         "profile_id": "0", "project_id": "0", "subtask_id": "0", "task_id": "0"]
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
