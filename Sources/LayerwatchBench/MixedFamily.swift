import Foundation
import PrinterKit
import StatusKit

/// A family of the mixed farm: how its fake starts and prints, what of its events count, and the
/// printer saved for it.
enum MixedFamily: CaseIterable {
    case elegoo, flashforge, prusaLink, bambu

    /// Whether Layerwatch watches its fake, by the fake's `counts` and the app's sessions `open`
    /// on it: a websocket or MQTT session open and its status asked for, or two status polls answered.
    func isLive(_ counts: [String: Int], open: Int) -> Bool {
        switch self {
        case .elegoo: return open >= 1
        case .bambu: return open >= 1 && counts["pushall", default: 0] >= 1
        case .flashforge, .prusaLink: return counts["poll", default: 0] >= 2
        }
    }

    var label: String {
        switch self {
        case .elegoo: return "Elegoo (SDCP websocket)"
        case .flashforge: return "Flashforge (HTTP polls)"
        case .prusaLink: return "PrusaLink (HTTP Digest polls)"
        case .bambu: return "Bambu (MQTT over TLS)"
        }
    }

    /// What its status events are, in the report: the app's polls, or the printer's pushes.
    var pollNoun: String {
        switch self {
        case .elegoo: return "app's SDCP requests; the printer pushes every second"
        case .flashforge: return "POST /detail"
        case .prusaLink: return "GET /api/v1/status"
        case .bambu: return "reports the printer published"
        }
    }

    /// The label of its status events (`pollNoun`) among its fake's counts.
    var pollLabel: String { self == .bambu ? "report" : "poll" }

    private static let secret = "Bench8x7"
    /// SDCP's Cmd 386, which turns an Elegoo printer's video on (its status connection sends it at connect).
    static let videoCommand = 386

    func start(index: Int) throws -> MixedFarmPrinters.Member {
        switch self {
        case .elegoo:
            let host = "127.\(Int.random(in: 1...254)).\(Int.random(in: 0...255)).\(Int.random(in: 1...254))"
            let fake = try LoopbackFake(script: "elegoo_sdcp_server.py", arguments: ["--bind", host, "--port", "\(StatusEndpoint.elegooPort)", "--camera-port", "\(StatusEndpoint.elegooCameraPort)"]) { event in
                switch event["event"] as? String {
                case "opened": return "opened"
                case "closed", "idle": return "closed"
                case "request": return event["cmd"] as? Int == MixedFamily.videoCommand ? "video-on" : "poll"
                case "ping": return "other"
                case "video", "video-refused": return "camera"
                default: return nil
                }
            }
            try fake.send(["cmd": "set", "fields": [
                "TempOfNozzle": 220.1, "TempTargetNozzle": 220, "TempOfHotbed": 60.0, "TempTargetHotbed": 60, "TempOfBox": 33,
                "PrintInfo": ["Status": 13, "Filename": "/local/benchy_PLA.gcode", "Progress": 30 + index, "CurrentLayer": 40 + index,
                              "TotalLayer": 120, "CurrentTicks": 2700, "TotalTicks": 7200]]])
            return .init(family: self, fake: fake, camera: nil,
                         printer: Printer(name: "Centauri \(index)", kind: .elegoo, host: host, apiPort: StatusEndpoint.elegooPort))
        case .flashforge:
            let camera = try LoopbackFake(script: "mjpeg_server.py", arguments: ["--width", "320", "--height", "240", "--fps", "5"]) {
                $0["event"] as? String == "request" ? "camera" : nil
            }
            let serial = "SNMOMC99000\(index)"
            // The camera its /detail names, saved with the printer as the add dialog imports it.
            let cameraURL = "http://127.0.0.1:\(camera.port)/?action=stream"
            let fake: LoopbackFake
            do {
                fake = try LoopbackFake(script: "flashforge_server.py", arguments: ["--serial", serial, "--check-code", Self.secret], classify: Self.httpPoll("/detail"))
            } catch {
                camera.stop()
                throw error
            }
            try fake.send(["cmd": "set", "detail": [
                "status": "printing", "printFileName": "/data/benchy_PLA.gx", "printProgress": 0.3 + Double(index) / 100, "printLayer": 40 + index,
                "targetPrintLayer": 120, "estimatedTime": 4500, "printDuration": 2700, "rightTemp": 220.1, "rightTargetTemp": 220,
                "platTemp": 60.0, "platTargetTemp": 60, "cameraStreamUrl": cameraURL]])
            return .init(family: self, fake: fake, camera: camera,
                         printer: Printer(name: "Adventurer \(index)", kind: .flashforge, host: "127.0.0.1", apiPort: fake.port, serial: serial,
                                          accessCode: Self.secret, cameras: [PrinterCamera(url: cameraURL)]))
        case .prusaLink:
            let fake = try LoopbackFake(script: "prusalink_server.py", arguments: ["--password", Self.secret], classify: Self.httpPoll("/api/v1/status"))
            try fake.send(["cmd": "set", "printer": ["state": "PRINTING", "temp_nozzle": 215.2, "target_nozzle": 215, "temp_bed": 60.1, "target_bed": 60],
                           "job": ["id": 10 + index, "progress": 30 + index, "time_remaining": 4500, "time_printing": 2700,
                                   "file": ["name": "BENCHY~\(index).BGC", "display_name": "benchy_PETG_\(index).bgcode"]]])
            return .init(family: self, fake: fake, camera: nil,
                         printer: Printer(name: "Prusa \(index)", kind: .prusaLink, host: "127.0.0.1", apiPort: fake.port, accessCode: Self.secret))
        case .bambu:
            let serial = "01S00C12345678\(index)"
            let fake = try LoopbackFake(script: "bambu_mqtt_printer.py", arguments: ["--code", Self.secret, "--serial", serial, "--model", "X1C"]) { event in
                switch event["event"] as? String {
                case "client-connected": return event["printer"] as? Bool == true ? nil : "opened"
                case "client-closed": return event["printer"] as? Bool == true ? nil : "closed"
                case "request": return event["kind"] as? String == "pushall" ? "pushall" : "other"
                case "done": return "report"  // a `set` published
                default: return nil
                }
            }
            try fake.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Benchy \(index)", "mc_percent": 30 + index,
                                                   "layer_num": 40 + index, "total_layer_num": 120, "mc_remaining_time": 75,
                                                   "nozzle_temper": 219.6, "nozzle_target_temper": 220, "bed_temper": 60.0, "bed_target_temper": 60]])
            return .init(family: self, fake: fake, camera: nil,
                         printer: Printer(name: "X1 Carbon \(index)", kind: .bambuRTSPS(.x1c), host: "127.0.0.1", apiPort: fake.port, serial: serial,
                                          accessCode: Self.secret))
        }
    }

    /// An HTTP fake's events: `path` polls (authorized), every other request, the refused ones
    /// (PrusaLink's Digest challenge) apart.
    private static func httpPoll(_ path: String) -> @Sendable ([String: Any]) -> String? {
        { event in
            guard event["event"] as? String == "request" else { return nil }
            guard event["authorized"] as? Bool != false else { return "refused" }
            return (event["path"] as? String)?.hasPrefix(path) == true ? "poll" : "other"
        }
    }
}
