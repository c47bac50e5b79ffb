import Foundation
import PrinterKit
import StatusKit

/// The mixed farm's eight loopback printers, two of each family the background watches besides
/// Klipper: Elegoo Centauri Carbon (`elegoo_sdcp_server.py` on its real ports 3030 and 3031, each on
/// its own 127.x.y.z address, so its own camera would reach it), Flashforge (`flashforge_server.py`,
/// its `cameraStreamUrl` an `mjpeg_server.py` of its own that counts who opens it, saved as its
/// camera as the add dialog imports it), PrusaLink (`prusalink_server.py`, HTTP Digest) and Bambu
/// (`bambu_mqtt_printer.py`: mosquitto with TLS and a printer client), each told it is printing; a
/// Bambu fake publishes only when told, so each gets a temperature change a second, the report a
/// printing X1 publishes about every second. It counts what each saw (status polls and other
/// requests, websocket and MQTT connections, camera streams), says when every one is watched, and
/// gives the printers as `printers.json` keeps them, secrets in the file as without a keyring.
final class MixedFarmPrinters: @unchecked Sendable {  // `stopped` is read and written under its lock
    /// One fake printer (and its camera, for Flashforge) and the printer saved for it.
    struct Member {
        let family: MixedFamily
        let fake: LoopbackFake
        let camera: LoopbackFake?
        let printer: Printer

        /// Whether Layerwatch watches it: a websocket or MQTT session open and its status asked
        /// for, or two status polls answered.
        var isLive: Bool {
            let counts = fake.counts
            switch family {
            case .elegoo: return open(counts) >= 1
            case .bambu: return open(counts) >= 1 && counts["pushall", default: 0] >= 1
            case .flashforge, .prusaLink: return counts["poll", default: 0] >= 2
            }
        }

        /// Camera streams opened: requests to Elegoo's MJPEG port, to the Flashforge camera. Bambu's own camera (RTSPS on port 322) has no fake: the
        /// app's own sockets show it (`AppSockets`).
        var cameraOpenings: Int {
            fake.counts["camera", default: 0] + (camera?.counts["camera", default: 0] ?? 0)
        }
    }

    let members: [Member]
    private let lock = NSLock()
    private var stopped = false

    init() throws {
        var members: [Member] = []
        defer { if members.count < MixedFamily.allCases.count * 2 { members.forEach { $0.stop() } } }
        for family in MixedFamily.allCases {
            for index in 1...2 { members.append(try family.start(index: index)) }
        }
        self.members = members
        let bambu = members.filter { $0.family == .bambu }.map(\.fake)
        Thread.detachNewThread { [self] in
            var tick = 0
            while !lock.withLock({ stopped }) {
                tick += 1
                for fake in bambu {
                    try? fake.send(["cmd": "set", "print": ["nozzle_temper": 219.5 + Double(tick % 5) / 5, "bed_temper": 60.0 - Double(tick % 3) / 10]])
                }
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }

    var printers: [Printer] { members.map(\.printer) }
    var isLive: Bool { members.allSatisfy(\.isLive) }
    /// Every fake's process (the status side and its camera), whose trees' CPU the bench counts.
    var pids: [Int32] { members.flatMap { [$0.fake.process.processIdentifier] + ($0.camera.map { [$0.process.processIdentifier] } ?? []) } }

    func stop() {
        lock.withLock { stopped = true }
        members.forEach { $0.stop() }
    }
}

extension MixedFarmPrinters.Member {
    func stop() {
        fake.stop()
        camera?.stop()
    }

    /// Websocket or MQTT sessions of the app open now (opened less closed).
    func open(_ counts: [String: Int]) -> Int { counts["opened", default: 0] - counts["closed", default: 0] }

    /// User + system CPU seconds of its fakes.
    var cpuSeconds: Double { fake.cpuSeconds + (camera?.cpuSeconds ?? 0) }
}

/// A family of the mixed farm: how its fake starts and prints, what of its events count, and the
/// printer saved for it.
enum MixedFamily: CaseIterable {
    case elegoo, flashforge, prusaLink, bambu

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

    fileprivate func start(index: Int) throws -> MixedFarmPrinters.Member {
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
