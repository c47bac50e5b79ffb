import Foundation
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// Klipper and OctoPrint status against small real HTTP servers answering Moonraker's and
/// OctoPrint's documented JSON (Tests/Servers/moonraker_server.py, octoprint_server.py): states,
/// keys, polling no faster than a second, and servers that misbehave.
final class HTTPStatusTests: XCTestCase {
    private func server(_ script: String, _ arguments: [String] = []) throws -> TestServer {
        let server = try TestServer(script: script, arguments: arguments)
        addTeardownBlock { server.stop() }
        return server
    }

    func testMoonrakerStatusFollowsThePrintAndPollsGently() throws {
        let moonraker = try server("moonraker_server.py")
        let recorder = StatusRecorder(.moonraker(host: "127.0.0.1", port: moonraker.port, apiKey: nil))
        recorder.awaitStatus(10, "standby") { $0.state == .idle && $0.nozzles.count == 1 }
        moonraker.send(["cmd": "set", "status": [
            "print_stats": ["state": "printing", "filename": "benchy.gcode", "print_duration": 300,
                            "info": ["current_layer": 7, "total_layer": 70]],
            "display_status": ["progress": 0.1], "extruder": ["temperature": 215.2, "target": 215],
        ]])
        let printing = recorder.awaitStatus(10, "printing") { $0.state == .printing }
        XCTAssertEqual(printing?.job, "benchy.gcode")
        XCTAssertEqual(printing?.progress, 10)
        XCTAssertEqual(printing?.layer, 7)
        XCTAssertEqual(printing?.timeLeft, 2700)
        XCTAssertEqual(printing?.nozzles, [.init(current: 215.2, target: 215)!])
        let before = moonraker.events(named: "request").count
        Thread.sleep(forTimeInterval: 5)
        let polls = moonraker.events(named: "request").count - before
        XCTAssertTrue((2...4).contains(polls), "\(polls) polls in 5 s: one every 2 s was expected")
    }

    func testMoonrakerKeyRejectedIsNotRetriedAndTheRightKeyWorks() throws {
        let moonraker = try server("moonraker_server.py", ["--api-key", "MOONKEY42"])
        let wrong = StatusRecorder(.moonraker(host: "127.0.0.1", port: moonraker.port, apiKey: "WRONGKEY"))
        wrong.expect(10, "authRejected") { $0.connection == .failed(.authRejected, retryIn: nil) }
        let missing = StatusRecorder(.moonraker(host: "127.0.0.1", port: moonraker.port, apiKey: nil))
        missing.expect(10, "authRejected") { $0.failure == .authRejected }
        Thread.sleep(forTimeInterval: 2)
        XCTAssertEqual(moonraker.events(named: "request").count, 2, "a refused key is asked once")
        let right = StatusRecorder(.moonraker(host: "127.0.0.1", port: moonraker.port, apiKey: "MOONKEY42"))
        right.awaitStatus(10, "live with the right key") { $0.state == .idle }
    }

    func testOctoPrintStatusTemperaturesAndAnUnconnectedPrinter() throws {
        let octoprint = try server("octoprint_server.py", ["--api-key", "OCTOKEY123456"])
        let recorder = StatusRecorder(.octoprint(host: "127.0.0.1", port: octoprint.port, apiKey: "OCTOKEY123456"))
        recorder.awaitStatus(10, "operational with temperatures") { $0.state == .idle && $0.bed != nil }
        octoprint.send(["cmd": "set", "state": "Printing", "job": ["file": ["name": "clip.gcode", "display": "clip.gcode"]],
                        "progress": ["completion": 40.0, "printTimeLeft": 600]])
        let printing = recorder.awaitStatus(10, "printing") { $0.state == .printing }
        XCTAssertEqual(printing?.job, "clip.gcode")
        XCTAssertEqual(printing?.progress, 40)
        XCTAssertEqual(printing?.timeLeft, 600)
        octoprint.send(["cmd": "set", "state": "Offline"])
        let offline = recorder.awaitStatus(10, "the printer disconnected from OctoPrint") { $0.state == .offline }
        XCTAssertEqual(offline?.nozzles, [], "no temperatures while /api/printer answers 409")
        XCTAssertEqual(recorder.all.filter { $0.connection == .connecting }.count, 1, "a 409 is an answer, not an outage")

        let wrong = StatusRecorder(.octoprint(host: "127.0.0.1", port: octoprint.port, apiKey: "NOTTHEKEY"))
        wrong.expect(10, "authRejected") { $0.connection == .failed(.authRejected, retryIn: nil) }
    }

    func testMisbehavingServersFailClearlyAndAreRetried() throws {
        let moonraker = try server("moonraker_server.py")
        let logged = LogLines()
        StreamLog.handler = { _, line in logged.append(line) }
        defer { StreamLog.handler = nil }
        let recorder = StatusRecorder(.moonraker(host: "127.0.0.1", port: moonraker.port, apiKey: nil))
        recorder.awaitStatus(10, "live") { _ in true }
        for (mode, expected) in [("garbage", "not JSON"), ("huge", "larger than 10 MB"), ("huge_chunked", "larger than 10 MB"),
                                 ("close", ""), ("500", "")] {
            let mark = recorder.all.count
            moonraker.send(["cmd": "mode", "mode": mode, "bytes": 11_000_000])
            XCTAssertNotNil(moonraker.waitFor("done", timeout: 5) { $0.string("mode") == mode })
            let failed = recorder.expect(10, "a failure in mode \(mode)", from: mark) { update in
                guard case .protocolError(let detail) = update.failure else { return false }
                return expected.isEmpty || detail.contains(expected)
            }
            XCTAssertEqual(failed?.status?.state, .offline)
            let retried = recorder.all.count
            moonraker.send(["cmd": "mode", "mode": "normal"])
            recorder.expect(10, "live again after \(mode)", from: retried) { $0.connection == .live }
        }
        let mark = recorder.all.count
        moonraker.send(["cmd": "mode", "mode": "stall"])
        recorder.expect(20, "a stalled server times out", from: mark) { $0.failure == .timeout }
        XCTAssertTrue(logged.lines.contains { $0.contains("larger than 10 MB") && $0.contains("retrying in") }, "\(logged.lines)")
    }

    func testCameraListsFromMoonrakerAndOctoPrint() throws {
        let moonraker = try server("moonraker_server.py")
        moonraker.send(["cmd": "webcams", "list": [
            ["name": "nozzle", "service": "mjpegstreamer-adaptive", "stream_url": "/webcam/?action=stream", "rotation": 180,
             "flip_horizontal": true, "flip_vertical": false, "enabled": true],
            ["name": "room", "service": "webrtc-camerastreamer", "stream_url": "/webcam2/webrtc", "rotation": 0, "enabled": true],
            ["name": "janus", "service": "webrtc-janus", "stream_url": "/janus", "enabled": true],
        ]])
        XCTAssertNotNil(moonraker.waitFor("done", timeout: 5))
        let cameras = try CameraImport.cameras(at: .moonraker(host: "127.0.0.1", port: moonraker.port, apiKey: nil))
        XCTAssertEqual(cameras.map(\.name), ["nozzle", "room", "janus"])
        XCTAssertEqual(cameras[0].url, "http://127.0.0.1/webcam/?action=stream")
        XCTAssertEqual(cameras[0].rotation, 180)
        XCTAssertTrue(cameras[0].flipHorizontal)
        XCTAssertEqual(cameras[1].url, "webrtc:http://127.0.0.1/webcam2/webrtc#format=camera-streamer")
        XCTAssertTrue(cameras[2].isBrowserOnly)

        let octoprint = try server("octoprint_server.py", ["--api-key", "OCTOKEY123456"])
        let listed = try CameraImport.cameras(at: .octoprint(host: "127.0.0.1", port: octoprint.port, apiKey: "OCTOKEY123456"))
        XCTAssertFalse(listed.isEmpty)
        XCTAssertTrue(listed.allSatisfy { $0.url != nil })
        XCTAssertThrowsError(try CameraImport.cameras(at: .octoprint(host: "127.0.0.1", port: octoprint.port, apiKey: "BAD"))) {
            XCTAssertEqual($0 as? StatusFailure, .authRejected)
        }
    }
}
