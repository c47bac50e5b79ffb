import Foundation
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// Bambu LAN status against a real broker: Debian's mosquitto with a TLS listener and a password
/// file, and a fake printer (paho) that publishes reports and obeys pushall and ledctrl
/// (Tests/Servers/bambu_mqtt_printer.py).
final class BambuStatusTests: XCTestCase {
    private let code = "31415926"

    private func printer(_ arguments: [String] = []) throws -> (TestServer, StatusEndpoint) {
        let server = try TestServer(script: "bambu_mqtt_printer.py", arguments: ["--code", code] + arguments)
        addTeardownBlock { server.stop() }
        let serial = try XCTUnwrap(server.waitFor("ready")?.string("serial"))
        return (server, .bambu(host: "127.0.0.1", port: server.port, accessCode: code, serial: serial))
    }

    func testPartialReportsMergeAfterOnePushall() throws {
        let (server, endpoint) = try printer(["--partial"])
        let recorder = StatusRecorder(endpoint)
        recorder.awaitStatus(15, "the first full report") { $0.state == .idle && $0.chamberLight == false }
        server.send(["cmd": "set", "print": ["gcode_state": "RUNNING", "subtask_name": "Benchy", "mc_percent": 5,
                                             "layer_num": 1, "total_layer_num": 150, "mc_remaining_time": 42,
                                             "nozzle_temper": 220, "nozzle_target_temper": 220]])
        recorder.awaitStatus(10, "printing") { $0.state == .printing && $0.progress == 5 }
        server.send(["cmd": "set", "print": ["mc_percent": 6, "layer_num": 2]])
        let merged = recorder.awaitStatus(10, "the partial report merged") { $0.progress == 6 }
        XCTAssertEqual(merged?.job, "Benchy")
        XCTAssertEqual(merged?.layer, 2)
        XCTAssertEqual(merged?.totalLayers, 150)
        XCTAssertEqual(merged?.timeLeft, 42 * 60)
        XCTAssertEqual(merged?.nozzles.first, .init(current: 220, target: 220))
        XCTAssertEqual(server.events(named: "request").filter { $0.string("kind") == "pushall" }.count, 1,
                       "one pushall per connection, none on a timer")
    }

    func testHMSAlertsAndThePrintErrorArriveInWords() throws {
        let (server, endpoint) = try printer(["--partial"])
        let recorder = StatusRecorder(endpoint)
        recorder.awaitStatus(15, "the first report") { $0.state == .idle }
        server.send(["cmd": "set", "print": ["gcode_state": "FAILED", "print_error": 0x0700_8011,
                                             "hms": [["attr": 0x0300_1000, "code": 0x0002_0002], ["attr": 0x0702_2300, "code": 0x0002_0001],
                                                     ["attr": 0x0700_4300, "code": 0x0002_0099], ["attr": 0x0300_1000, "code": 0x0002_0002],
                                                     ["attr": 0x0500_0500, "code": 0x0001_0007]]]])
        let status = try XCTUnwrap(recorder.awaitStatus(10, "failed with alerts") { $0.state == .failed && !$0.alerts.isEmpty })
        XCTAssertEqual(status.alerts.map(\.code), ["0300_1000_0002_0002", "0702_2300_0002_0001", "0700_4300_0002_0099", "0500_0500_0001_0007"],
                       "each code once, in the printer's order")
        XCTAssertEqual(status.alerts.map(\.module), [.motionController, .ams, .ams, .mainboard])
        XCTAssertEqual(status.alerts.map(\.severity), [.serious, .serious, .serious, .fatal])
        XCTAssertEqual(status.alerts[1].text, "AMS3 slot 4 filament has run out.")
        XCTAssertNil(status.alerts[2].text, "a code no source words has no text")
        XCTAssertEqual(status.alerts[2].url, "https://e.bambulab.com/index.php?e=0700430000020099&s=device_hms&lang=en")
        XCTAssertEqual(status.alerts.map(\.isAuthorizationRefusal), [false, false, false, true])
        XCTAssertEqual(status.printError?.code, "0700_8011")
        XCTAssertEqual(status.printError?.module, .ams)
        XCTAssertEqual(status.errorText, "AMS filament ran out. Please insert a new filament into the same AMS slot. (0700_8011)")

        server.send(["cmd": "set", "print": ["gcode_state": "IDLE", "print_error": 0, "hms": []]])
        let cleared = recorder.awaitStatus(10, "cleared") { $0.state == .idle }
        XCTAssertEqual(cleared?.alerts, [])
        XCTAssertNil(cleared?.printError)
        XCTAssertNil(cleared?.errorText)
    }

    func testPackedTemperaturesOfATwoNozzlePrinter() throws {
        let (_, endpoint) = try printer(["--packed-temps", "--model", "H2D"])
        let recorder = StatusRecorder(endpoint)
        let status = recorder.awaitStatus(15, "two nozzles") { $0.nozzles.count == 2 }
        XCTAssertNotNil(status?.bed)
        XCTAssertNotNil(status?.chamber)
    }

    func testTheLightFollowsThePrintersReportNotTheRequest() throws {
        let (server, endpoint) = try printer(["--partial"])
        let recorder = StatusRecorder(endpoint)
        recorder.awaitStatus(15, "light off") { $0.chamberLight == false }
        recorder.monitor.setChamberLight(true)
        let request = server.waitFor("request", timeout: 10) { $0.string("kind") == "ledctrl" }
        let system = (request?.fields["payload"] as? [String: Any])?["system"] as? [String: Any]
        XCTAssertEqual(system?["led_node"] as? String, "chamber_light")
        XCTAssertEqual(system?["led_mode"] as? String, "on")
        recorder.awaitStatus(10, "light on, as reported") { $0.chamberLight == true }
    }

    func testStoppingClosesTheConnectionAtOnce() throws {
        let (server, endpoint) = try printer()
        let recorder = StatusRecorder(endpoint)
        recorder.awaitStatus(15, "live") { _ in true }
        let started = Date()
        recorder.monitor.stop(waitingUpTo: 5)
        // libmosquitto's loop sleeps up to a second; the stop wakes it instead.
        XCTAssertLessThan(Date().timeIntervalSince(started), 0.5)
        XCTAssertNotNil(server.waitFor("client-closed", timeout: 5) { $0.fields["printer"] as? Bool == false },
                        "the broker saw the client leave")
    }

    func testAWrongCodeIsRejectedOnceAndNotRetried() throws {
        let (server, good) = try printer()
        let recorder = StatusRecorder(.bambu(host: good.host, port: good.port, accessCode: "99999999", serial: good.serial))
        recorder.expect(15, "authRejected") { $0.connection == .failed(.authRejected, retryIn: nil) }
        Thread.sleep(forTimeInterval: 3)
        XCTAssertEqual(recorder.all.filter { $0.connection == .connecting }.count, 1, "\(recorder.all)")
        XCTAssertEqual(server.events(named: "client-refused").count, 1)
    }

    func testGarbageHugeAndForeignReportsAreIgnored() throws {
        let (server, endpoint) = try printer(["--partial"])
        let logged = LogLines()
        StreamLog.handler = { _, line in logged.append(line) }
        defer { StreamLog.handler = nil }
        let recorder = StatusRecorder(endpoint)
        recorder.awaitStatus(15, "the first report") { $0.state == .idle }
        server.send(["cmd": "raw", "payload": "{\"print\": {not json"])
        server.send(["cmd": "raw", "payload": "[1,2,3]"])
        server.send(["cmd": "huge", "bytes": 11_000_000])
        server.send(["cmd": "other_serial", "print": ["gcode_state": "FAILED", "mc_percent": 99]])
        XCTAssertNotNil(server.waitFor("done", timeout: 20) { $0.string("cmd") == "other_serial" })
        server.send(["cmd": "set", "print": ["gcode_state": "PAUSE", "mc_percent": 30]])
        let status = recorder.awaitStatus(15, "the valid report after the bad ones") { $0.state == .paused }
        XCTAssertEqual(status?.progress, 30)
        XCTAssertFalse(recorder.all.contains { $0.status?.progress == 99 || $0.status?.state == .failed })
        XCTAssertEqual(recorder.all.filter { $0.connection == .connecting }.count, 1, "bad messages must not cost the connection")
        let lines = logged.lines
        XCTAssertTrue(lines.contains { $0.contains("ignored a report") && $0.contains("not JSON") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.contains("ignored a report") && $0.contains("not an object") }, "\(lines)")
        XCTAssertTrue(lines.contains { $0.contains("ignored a message of 1100") && $0.contains("10 MB") }, "\(lines)")
        XCTAssertFalse(lines.contains { $0.contains(code) }, "the access code leaked into the log")
    }

    func testABrokerRestartReconnectsWithItsOwnPushall() throws {
        let (server, endpoint) = try printer(["--partial"])
        let recorder = StatusRecorder(endpoint)
        recorder.awaitStatus(15, "live") { _ in true }
        server.send(["cmd": "kick_clients"])
        recorder.expect(15, "the lost connection") { $0.failure != nil && $0.status?.state == .offline }
        let connects = { recorder.all.filter { $0.connection == .live }.count }
        let deadline = Date().addingTimeInterval(15)
        while Date() < deadline && server.events(named: "request").filter({ $0.string("kind") == "pushall" }).count < 2 {
            usleep(100_000)
        }
        XCTAssertEqual(server.events(named: "request").filter { $0.string("kind") == "pushall" }.count, 2)
        recorder.awaitStatus(10, "live again") { $0.state == .idle }
        XCTAssertGreaterThanOrEqual(connects(), 2)
    }

    func testWithoutASerialTheCertificateGivesItOrStatusSaysItIsMissing() throws {
        let (server, endpoint) = try printer(["--partial"])
        let fromCertificate = StatusRecorder(.bambu(host: endpoint.host, port: endpoint.port, accessCode: code, serial: nil))
        fromCertificate.awaitStatus(15, "the report, subscribed with the certificate's serial") { $0.state == .idle }
        let serial = try XCTUnwrap(server.waitFor("ready")?.string("serial"))
        XCTAssertTrue(server.events(named: "subscribe").contains {
            $0.string("topic") == "device/\(serial)/report" && $0.fields["printer"] as? Bool == false
        }, "\(server.events(named: "subscribe").map(\.fields))")

        let (_, unnamed) = try printer(["--certificate-name", "Bambu Lab printer"])
        let noSerial = StatusRecorder(.bambu(host: unnamed.host, port: unnamed.port, accessCode: code, serial: nil))
        noSerial.expect(15, "missingSerial") { $0.connection == .failed(.missingSerial, retryIn: nil) }
    }

    func testRefusedAndSilentHosts() throws {

        let refused = StatusRecorder(.bambu(host: "127.0.0.1", port: closedLoopbackPort(), accessCode: code, serial: "S1"))
        let update = refused.expect(5, "refused") { $0.failure == .refused }
        if case .failed(_, let retryIn) = update?.connection { XCTAssertNotNil(retryIn, "a refused connection is retried") }

        let silent = try TestServer(script: "silent_server.py")
        addTeardownBlock { silent.stop() }
        let started = Date()
        let stalled = StatusRecorder(.bambu(host: "127.0.0.1", port: silent.port, accessCode: code, serial: "S1"))
        stalled.expect(20, "timeout") { $0.failure == .timeout }
        XCTAssertLessThan(Date().timeIntervalSince(started), 16)
    }
}
