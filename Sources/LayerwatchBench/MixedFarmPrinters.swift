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
        var isLive: Bool { family.isLive(fake.counts, open: open(fake.counts)) }

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
