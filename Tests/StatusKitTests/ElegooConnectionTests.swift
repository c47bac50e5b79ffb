import Foundation
@testable import StatusKit
import StreamKit
import TestSupport
import XCTest

/// An Elegoo Centauri Carbon's status over SDCP V3 against a fake printer (Tests/Servers/
/// elegoo_sdcp_server.py): the pushed status decoded, the print states with pausing, resuming and
/// stopping, the time left from the ticks, the job kept when the firmware blanks it after a stop,
/// commands answered with their `Ack` (a refusal in words), the light, the `ping` that keeps the
/// printer from dropping the connection, the camera turned on, and hostile messages.
final class ElegooConnectionTests: XCTestCase {
    private func printer(_ arguments: [String] = []) throws -> TestServer {
        let server = try TestServer(script: "elegoo_sdcp_server.py", arguments: ["--interval", "0.3"] + arguments)
        addTeardownBlock { server.stop() }
        return server
    }

    private func recorder(_ server: TestServer) -> StatusRecorder {
        StatusRecorder(.elegoo(host: "127.0.0.1", port: server.port))
    }

    private func set(_ server: TestServer, _ fields: [String: Any], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(server.perform(["cmd": "set", "fields": fields])?.name, "done", file: file, line: line)
    }

    private func requests(_ server: TestServer) -> [(cmd: Int, data: [String: Any])] {
        server.events(named: "request").compactMap { event in
            event.int("cmd").map { ($0, event.fields["data"] as? [String: Any] ?? [:]) }
        }
    }

    private static let printing: [String: Any] = [
        "TempOfNozzle": 219.6, "TempTargetNozzle": 220, "TempOfHotbed": 60.1, "TempTargetHotbed": 60, "TempOfBox": 31.5,
        "CurrentStatus": [1],
        "PrintInfo": ["Status": 13, "CurrentLayer": 57, "TotalLayer": 180, "CurrentTicks": 1800, "TotalTicks": 6120,
                      "Filename": "/local/benchy_PLA_1h42m.gcode", "TaskId": "c0ffee", "Progress": 29],
    ]

    func testTheStatusIsDecoded() throws {
        let server = try printer()
        let recorder = recorder(server)
        let idle = try XCTUnwrap(recorder.awaitStatus(10, "idle with its heaters") { $0.state == .idle && $0.bed != nil })
        XCTAssertEqual(idle.nozzles, [.init(current: 25.3, target: 0)!])
        XCTAssertEqual(idle.chamber?.current, 26.4)
        XCTAssertEqual(idle.chamberLight, false)
        XCTAssertNil(idle.job)
        XCTAssertNil(idle.transition)

        set(server, Self.printing)
        let printing = try XCTUnwrap(recorder.awaitStatus(10, "printing") { $0.state == .printing })
        XCTAssertEqual(printing.job, "benchy_PLA_1h42m.gcode", "the name after the path")
        XCTAssertEqual(printing.progress, 29)
        XCTAssertEqual(printing.layer, 57)
        XCTAssertEqual(printing.totalLayers, 180)
        XCTAssertEqual(printing.timeLeft, 6120 - 1800, "TotalTicks − CurrentTicks")
        XCTAssertEqual(printing.elapsed, 1800)
        XCTAssertEqual(printing.nozzles, [.init(current: 219.6, target: 220)!])
        XCTAssertEqual(printing.bed, .init(current: 60.1, target: 60))
        XCTAssertEqual(printing.chamber?.current, 31.5)
        XCTAssertNil(printing.errorText)

        set(server, ["PrintInfo": ["Status": 9, "Progress": 100, "CurrentTicks": 6120]])
        let finished = try XCTUnwrap(recorder.awaitStatus(10, "complete") { $0.state == .finished })
        XCTAssertEqual(finished.job, "benchy_PLA_1h42m.gcode")
        XCTAssertNil(finished.timeLeft, "no time left once finished")

        set(server, ["PrintInfo": ["Status": 1, "ErrorNumber": 2, "Filename": "/local/<span color='red'>gear & co.gcode"]])
        let failed = try XCTUnwrap(recorder.awaitStatus(10, "a print error") { $0.errorText != nil })
        XCTAssertEqual(failed.errorText, "Elegoo: the print file could not be read")
        XCTAssertEqual(failed.job, "<span color='red'>gear & co.gcode", "markup in a name is text, kept as sent")
        XCTAssertEqual(failed.state, .preparing)
        XCTAssertEqual(server.events(named: "opened").count, 1, "one connection")
    }

    /// Pause, continue and stop are SDCP commands 129, 131 and 130 answered with Ack 0; the printer
    /// passes through pausing, resuming and stopping, shown as such; after the stop it blanks the
    /// file's name, and the print that ended keeps it.
    func testCommandsAreAnsweredAndTheTransitionsShown() throws {
        let server = try printer()
        let recorder = recorder(server)
        set(server, Self.printing)
        recorder.awaitStatus(10, "printing") { $0.state == .printing }

        XCTAssertEqual(recorder.send(.pause), .done)
        let pausing = try XCTUnwrap(recorder.awaitStatus(10, "pausing") { $0.transition == .pausing })
        XCTAssertEqual(pausing.state, .printing, "not paused yet")
        XCTAssertEqual(StatusText.state(of: pausing), "Pausing")
        recorder.awaitStatus(10, "paused") { $0.state == .paused && $0.transition == nil }

        let beforeResume = recorder.all.count
        XCTAssertEqual(recorder.send(.resume), .done)
        let resuming = try XCTUnwrap(recorder.awaitStatus(10, "resuming", from: beforeResume) { $0.transition == .resuming })
        XCTAssertEqual(resuming.state, .paused)
        XCTAssertEqual(StatusText.state(of: resuming), "Resuming")
        recorder.awaitStatus(10, "printing again", from: beforeResume) { $0.state == .printing && $0.transition == nil }

        XCTAssertEqual(recorder.send(.stop), .done)
        let stopping = try XCTUnwrap(recorder.awaitStatus(10, "stopping") { $0.transition == .stopping })
        XCTAssertEqual(StatusText.state(of: stopping), "Stopping")
        XCTAssertEqual(stopping.job, "benchy_PLA_1h42m.gcode", "the Filename blanked while stopping is still this print's")
        let stopped = try XCTUnwrap(recorder.awaitStatus(10, "stopped") { $0.state == .cancelled })
        XCTAssertEqual(stopped.job, "benchy_PLA_1h42m.gcode", "the blanked Filename is still the print that ended")
        XCTAssertNil(stopped.errorText, "a stop is no error")
        let statuses = recorder.all.compactMap(\.status)
        let underWay = statuses.reduce(into: [PrintUnderWay?]()) { $0.append(PrintUnderWay.following($0.last ?? nil, in: $1)) }
        XCTAssertEqual(Set(underWay.compactMap { $0?.number }).count, 1, "one print from start to stop")

        recorder.monitor.setChamberLight(true)
        recorder.awaitStatus(10, "light on") { $0.chamberLight == true }
        guard case .refused? = recorder.send(.speed(.sport)) else { return XCTFail("a speed profile is refused") }

        let sent = requests(server)
        XCTAssertEqual(Array(sent.map(\.cmd).prefix(2)), [0, 386], "the status at once, then the camera's video on")
        XCTAssertEqual(sent[1].data["Enable"] as? Int, 1)
        XCTAssertEqual(sent.map(\.cmd).filter { $0 >= 129 && $0 != 386 }, [129, 131, 130, 403])
        let light = try XCTUnwrap(sent.last?.data["LightStatus"] as? [String: Any])
        XCTAssertEqual(light["SecondLight"] as? Bool, true)
        XCTAssertTrue(server.events(named: "request").allSatisfy { ($0.string("request_id") ?? "").count == 32 }, "32 hex digits")
        XCTAssertEqual(server.events(named: "request").last?.string("topic"), "sdcp/request/608715130105041800009c0000000000",
                       "the printer's MainboardID, learnt from its status")
    }

    func testARefusalIsToldInWords() throws {
        let server = try printer()
        let recorder = recorder(server)
        set(server, Self.printing)
        recorder.awaitStatus(10, "printing") { $0.state == .printing }
        XCTAssertEqual(server.perform(["cmd": "ack", "command": 129, "ack": 1])?.name, "done")
        let outcome = recorder.send(.pause)
        XCTAssertEqual(outcome, .refused("the Elegoo printer cannot do that now (it is busy, or the print is not in a state for it)"))
        XCTAssertEqual(outcome?.message?.hasPrefix("The printer refused: the Elegoo printer"), true, outcome?.message ?? "")
        XCTAssertEqual(server.perform(["cmd": "ack", "command": 130, "ack": 77])?.name, "done")
        XCTAssertEqual(recorder.send(.stop), .refused("the Elegoo printer answered with code 77"))
    }

    /// The printer drops a client that sends nothing for about a minute (here --idle 3 s): the
    /// connection's `ping`s keep it; without them the same printer drops it.
    func testPingsKeepThePrinterFromDroppingTheConnection() throws {
        let server = try printer(["--idle", "3"])
        let endpoint = StatusEndpoint.elegoo(host: "127.0.0.1", port: server.port)
        let connection = ElegooConnection(host: "127.0.0.1", port: server.port, log: StatusLog(endpoint: endpoint), pingEvery: 1)
        let stop = StopSignal()
        let ran = expectation(description: "ran")
        DispatchQueue.global().async {
            _ = try? connection.run(stop: stop, live: {}, report: { _ in })
            ran.fulfill()
        }
        // Five pings a second apart: the connection outlived the 3 s the printer waits (its events
        // come in order, so a drop would be seen before the pings that could not follow it).
        XCTAssertTrue(waitUntil(timeout: 30) { server.events(named: "ping").count >= 5 }, "\(server.events(named: "ping").count) pings")
        XCTAssertEqual(server.events(named: "idle").count, 0, "kept by the pings")
        XCTAssertEqual(server.events(named: "opened").count, 1, "on one connection")
        stop.stop()
        connection.interrupt()
        wait(for: [ran], timeout: 5)

        let quiet = ElegooConnection(host: "127.0.0.1", port: server.port, log: StatusLog(endpoint: endpoint), pingEvery: 100)
        XCTAssertThrowsError(try quiet.run(stop: StopSignal(), live: {}, report: { _ in })) { error in
            XCTAssertTrue(error is StatusFailure, "\(error)")
        }
        XCTAssertNotNil(server.waitFor("idle"), "a client without pings is dropped")
        XCTAssertEqual(server.events(named: "idle").count, 1)
    }

    func testTheCameraIsTurnedOnAndItsURLGivenAScheme() throws {
        let server = try printer()
        let endpoint = StatusEndpoint.elegoo(host: "127.0.0.1", port: server.port)
        let cameras = try CameraImport.cameras(at: endpoint)
        let port = try XCTUnwrap(server.events(named: "ready").first?.int("camera_port"))
        XCTAssertEqual(cameras.map(\.url), ["http://127.0.0.1:\(port)/video"])
        XCTAssertEqual(requests(server).last?.cmd, 386)
        XCTAssertEqual(ElegooRequests.videoURL("192.168.1.40:3031/video"), "http://192.168.1.40:3031/video")
        XCTAssertEqual(ElegooRequests.videoURL("http://192.168.1.40:3031/video"), "http://192.168.1.40:3031/video")
    }

    /// Numbers out of range (1e308, negative, ±inf written as strings), a message that is not
    /// JSON (NaN), one nested 100 000 deep, one not UTF-8: each costs only itself; an 8 MiB message
    /// ends the connection with a clear failure, and it reconnects.
    func testHostileMessages() throws {
        let server = try printer(["--interval", "30"])
        let recorder = recorder(server)
        recorder.awaitStatus(10, "idle") { $0.state == .idle }
        let raw = [
            #"{"Status":{"TempOfNozzle":NaN,"PrintInfo":{"Status":13}}}"#,
            #"{"Status":{"TempOfNozzle":1e308,"TempOfHotbed":"-inf","TempOfBox":"inf","PrintInfo":{"Status":13,"Progress":1e308,"CurrentLayer":-5,"TotalLayer":1e308,"CurrentTicks":-1,"TotalTicks":1e308,"Filename":"/local/x.gcode"}}}"#,
        ]
        for text in raw { XCTAssertEqual(server.perform(["cmd": "raw", "text": text])?.name, "done") }
        let odd = try XCTUnwrap(recorder.awaitStatus(10, "the second message read") { $0.job == "x.gcode" })
        XCTAssertEqual(odd.state, .printing)
        XCTAssertNil(odd.progress)
        XCTAssertNil(odd.layer)
        XCTAssertNil(odd.totalLayers)
        XCTAssertNil(odd.timeLeft)
        XCTAssertEqual(odd.nozzles, [])
        XCTAssertNil(odd.bed)
        XCTAssertNil(odd.chamber)
        for mode in ["deep", "badutf8", "garbage"] { XCTAssertEqual(server.perform(["cmd": "mode", "mode": mode])?.name, "done") }
        set(server, ["PrintInfo": ["Status": 6]])
        recorder.awaitStatus(10, "the status still follows") { $0.state == .paused }
        XCTAssertFalse(recorder.all.contains { $0.failure != nil }, "\(recorder.all)")

        let index = recorder.all.count
        XCTAssertEqual(server.perform(["cmd": "mode", "mode": "huge"])?.name, "done")
        let failed = recorder.expect(10, "huge refused", from: index) { $0.failure != nil }
        XCTAssertEqual(failed?.failure, .protocolError("a message of 8388608 bytes, over the 1 MB limit"))
        XCTAssertNotNil(server.waitFor("opened", timeout: 10) { $0.int("total") == 2 }, "reconnected")
    }

    func testASilentPrinterTimesOutAndARefusedPortIsSaid() throws {
        let server = try printer()
        XCTAssertEqual(server.perform(["cmd": "mode", "mode": "silent"])?.name, "done")
        let endpoint = StatusEndpoint.elegoo(host: "127.0.0.1", port: server.port)
        let connection = ElegooConnection(host: "127.0.0.1", port: server.port, log: StatusLog(endpoint: endpoint),
                                          quietAfter: 0.5, silenceLimit: 2)
        let started = Date()
        XCTAssertThrowsError(try connection.run(stop: StopSignal(), live: {}, report: { _ in })) { error in
            XCTAssertEqual(error as? StatusFailure, .timeout)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 6)
        XCTAssertGreaterThanOrEqual(requests(server).filter { $0.cmd == 0 }.count, 2, "a quiet printer is asked again before it is given up")

        let refused = StatusRecorder(.elegoo(host: "127.0.0.1", port: closedLoopbackPort()))
        refused.expect(10, "refused") { $0.failure == .refused }
        XCTAssertEqual(refused.send(.pause), .notConnected)
    }

    /// A peer that takes the TCP connection and never answers the websocket handshake (half-open,
    /// or another service): given up after the connect timeout, as a timeout.
    func testAHandshakeNeverAnsweredTimesOut() throws {
        let silent = try TestServer(script: "silent_server.py")
        addTeardownBlock { silent.stop() }
        let endpoint = StatusEndpoint.elegoo(host: "127.0.0.1", port: silent.port)
        let connection = ElegooConnection(host: "127.0.0.1", port: silent.port, log: StatusLog(endpoint: endpoint))
        let started = Date()
        XCTAssertThrowsError(try connection.run(stop: StopSignal(), live: { XCTFail("never live") }, report: { _ in })) { error in
            XCTAssertEqual(error as? StatusFailure, .timeout)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), ElegooConnection.connectTimeout + 3)
        XCTAssertNotNil(silent.waitFor("accepted"))
    }

    func testStateNumbers() {
        func status(_ info: [String: Any]) -> PrinterStatus {
            var report = ElegooReport()
            _ = report.merge(["Status": ["PrintInfo": info]])
            return report.status
        }
        let expected: [Int: (PrinterStatus.State, PrinterStatus.Transition?)] = [
            0: (.idle, nil), 5: (.printing, .pausing), 6: (.paused, nil), 7: (.printing, .stopping), 8: (.cancelled, nil),
            9: (.finished, nil), 12: (.paused, .resuming), 13: (.printing, nil), 16: (.preparing, nil),
        ]
        for (number, want) in expected {
            let read = status(["Status": number])
            XCTAssertEqual(read.state, want.0, "state \(number)")
            XCTAssertEqual(read.transition, want.1, "state \(number)")
        }
        XCTAssertEqual(status(["Status": "6"]).state, .paused, "a number sent as a string")
        XCTAssertEqual(status(["Status": 1e308]).state, .idle, "out of range")
        var report = ElegooReport()
        XCTAssertFalse(report.merge(["Data": ["Cmd": 129, "Data": ["Ack": 0]]]), "an answer is no status")
        XCTAssertTrue(report.merge(["Status": ["Unknown": 1]]))
        XCTAssertTrue(report.isEmpty, "fields Layerwatch does not read are not kept")
    }
}
