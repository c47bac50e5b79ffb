import Foundation
@testable import StatusKit
import StreamKit
import TestSupport
import XCTest

/// A Flashforge printer's status through its HTTP API against a fake printer that checks the serial
/// number and check code of every POST and answers `/detail` and `/control` as the Adventurer 5M's
/// firmware does (Tests/Servers/flashforge_server.py): the fields decoded, the states, commands and
/// the light with the printer's answer codes, a wrong check code in the printer's words, a refused,
/// silent or misbehaving host, hostile numbers, and the camera its status names.
final class FlashforgeConnectionTests: XCTestCase {
    static let serial = "SNMOMC9900001", code = "31415926"

    private func printer(_ arguments: [String] = []) throws -> TestServer {
        let server = try TestServer(script: "flashforge_server.py", arguments: ["--serial", Self.serial, "--check-code", Self.code] + arguments)
        addTeardownBlock { server.stop() }
        return server
    }

    private func endpoint(_ server: TestServer, serial: String = serial, code: String = code) -> StatusEndpoint {
        .flashforge(host: "127.0.0.1", port: server.port, serial: serial, checkCode: code)
    }

    private func set(_ server: TestServer, _ detail: [String: Any], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(server.perform(["cmd": "set", "detail": detail])?.name, "done", "the fake took the change", file: file, line: line)
    }

    private func controls(_ server: TestServer) -> [[String: Any]] {
        server.events(named: "request").filter { $0.string("path") == "/control" }.compactMap { $0.fields["payload"] as? [String: Any] }
    }

    func testDetailIsDecodedThroughAPrint() throws {
        let server = try printer()
        let recorder = StatusRecorder(endpoint(server))
        let idle = try XCTUnwrap(recorder.awaitStatus(10, "ready with its heaters") { $0.state == .idle && $0.bed != nil })
        XCTAssertEqual(idle.nozzles, [.init(current: 24.5, target: 0)!])
        XCTAssertEqual(idle.chamber?.current, 25)
        XCTAssertEqual(idle.chamberLight, false, "lightStatus close")
        XCTAssertNil(idle.job)

        set(server, ["status": "printing", "printFileName": "/data/benchy_PLA.gx", "printProgress": 0.42, "printLayer": 57,
                     "targetPrintLayer": 180, "estimatedTime": 4320, "printDuration": 1800, "rightTemp": 219.6,
                     "rightTargetTemp": 220, "platTemp": 60.1, "platTargetTemp": 60, "lightStatus": "open"])
        let printing = try XCTUnwrap(recorder.awaitStatus(10, "printing") { $0.state == .printing })
        XCTAssertEqual(printing.job, "benchy_PLA.gx")
        XCTAssertEqual(try XCTUnwrap(printing.progress), 42, accuracy: 1e-9, "printProgress is a fraction")
        XCTAssertEqual(printing.layer, 57)
        XCTAssertEqual(printing.totalLayers, 180)
        XCTAssertEqual(printing.timeLeft, 4320)
        XCTAssertEqual(printing.elapsed, 1800)
        XCTAssertEqual(printing.nozzles, [.init(current: 219.6, target: 220)!])
        XCTAssertEqual(printing.bed, .init(current: 60.1, target: 60))
        XCTAssertEqual(printing.chamberLight, true)

        set(server, ["status": "pausing"])
        let pausing = recorder.awaitStatus(10, "pausing") { $0.transition == .pausing }
        XCTAssertEqual(pausing?.state, .printing, "still printing on its way to paused")
        XCTAssertEqual(pausing.map(StatusText.state(of:)), tr("Pausing"))
        for (word, state) in [("heating", PrinterStatus.State.preparing), ("calibrate_doing", .preparing), ("paused", .paused),
                              ("completed", .finished), ("cancel", .cancelled)] {
            set(server, ["status": word])
            let seen = recorder.awaitStatus(10, word) { $0.state == state && $0.transition == nil }
            XCTAssertEqual(seen?.job, "benchy_PLA.gx", "\(word) still names the print")
        }
        XCTAssertNil(recorder.all.last?.status?.timeLeft, "no time left once the print ended")

        set(server, ["status": "error", "errorCode": "E0086"])
        let failed = recorder.awaitStatus(10, "error") { $0.state == .failed }
        XCTAssertEqual(failed?.errorText, String(format: tr("Flashforge error %@ — see the printer's screen."), "E0086"))
        set(server, ["errorCode": "<b>E1</b>"])
        recorder.awaitStatus(10, "an error code with markup is not repeated") {
            $0.state == .failed && $0.errorText == tr("The printer reports an error — see its screen.")
        }
        let beforeReady = recorder.all.count
        set(server, ["status": "ready", "chamberTemp": 0, "errorCode": ""])
        let ready = recorder.awaitStatus(10, "ready again", from: beforeReady) { $0.state == .idle && $0.errorText == nil }
        XCTAssertNil(ready?.chamber, "a chamber reading 0 is a printer without a chamber sensor")
        XCTAssertNil(ready?.job)
    }

    func testCommandsAndTheLightGoToControlWithThePrintersAnswers() throws {
        let server = try printer()
        let recorder = StatusRecorder(endpoint(server))
        set(server, ["status": "printing", "printFileName": "clip.gx", "printProgress": 0.1])
        recorder.awaitStatus(10, "printing") { $0.state == .printing }
        XCTAssertEqual(recorder.send(.pause), .done)
        recorder.awaitStatus(10, "paused") { $0.state == .paused }
        let beforeResume = recorder.all.count
        XCTAssertEqual(recorder.send(.resume), .done)
        recorder.awaitStatus(10, "printing again", from: beforeResume) { $0.state == .printing }
        XCTAssertEqual(recorder.send(.stop), .done)
        let cancelled = recorder.awaitStatus(10, "cancelled") { $0.state == .cancelled }
        XCTAssertNil(cancelled?.errorText, "a cancel is no error")
        guard case .refused? = recorder.send(.speed(.sport)) else { return XCTFail("a speed profile is refused") }

        XCTAssertTrue(endpoint(server).hasSwitchableLight)
        recorder.monitor.setChamberLight(true)
        recorder.awaitStatus(10, "light on") { $0.chamberLight == true }
        let beforeOff = recorder.all.count
        recorder.monitor.setChamberLight(false)
        recorder.awaitStatus(10, "light off", from: beforeOff) { $0.chamberLight == false }

        let sent = controls(server).map { "\($0["cmd"] as? String ?? "?") \(($0["args"] as? [String: Any])?.values.compactMap { $0 as? String }.filter { !$0.isEmpty } ?? [])" }
        XCTAssertEqual(sent, ["jobCtl_cmd [\"pause\"]", "jobCtl_cmd [\"continue\"]", "jobCtl_cmd [\"cancel\"]",
                              "lightControl_cmd [\"open\"]", "lightControl_cmd [\"close\"]"])
        XCTAssertTrue(server.events(named: "request").allSatisfy { $0.fields["authorized"] as? Bool == true })
    }

    func testABusyPrinterRefusesInWordsAndAnImpossibleCommandNamesItsCode() throws {
        let server = try printer()
        let recorder = StatusRecorder(endpoint(server))
        set(server, ["status": "printing", "printFileName": "clip.gx"])
        recorder.awaitStatus(10, "printing") { $0.state == .printing }
        XCTAssertEqual(server.perform(["cmd": "busy", "on": true])?.name, "done")
        let busy = recorder.send(.pause)
        XCTAssertEqual(busy?.kind, "refused")
        XCTAssertTrue(busy?.message?.contains(tr("the Flashforge printer is busy — try again when it has finished what it is doing")) == true,
                      "\(String(describing: busy?.message))")
        XCTAssertEqual(server.perform(["cmd": "busy", "on": false])?.name, "done")
        let wrongState = recorder.send(.resume)  // printing: the fake answers code 1
        XCTAssertEqual(wrongState, .refused(String(format: tr("the Flashforge printer answered with code %ld"), 1)))
    }

    func testAWrongCheckCodeOrSerialIsRejectedInThePrintersWordsAndNotRetried() throws {
        let server = try printer()
        for (serial, code) in [(Self.serial, "27182818"), ("SNOTHER0000000", Self.code)] {
            let before = server.events(named: "request").count
            let recorder = StatusRecorder(endpoint(server, serial: serial, code: code))
            let update = recorder.expect(10, "rejected") { $0.failure != nil }
            guard case .credentialsRejected(let status, let field)? = update?.failure else {
                return XCTFail("\(String(describing: update))")
            }
            XCTAssertEqual(update?.failure?.kind, "authRejected")
            XCTAssertTrue(status.contains("check code") && field.contains("check code"), status)
            XCTAssertFalse(status.contains(code) || field.contains(code), "the code is never repeated")
            Thread.sleep(forTimeInterval: 2.5)
            XCTAssertEqual(server.events(named: "request").count - before, 1, "a refused check code is asked once")
            XCTAssertEqual(server.events(named: "request").last?.fields["authorized"] as? Bool, false)
        }
        XCTAssertFalse(server.events(named: "request").contains { "\($0.fields)".contains(Self.code) }, "the fake logs no check code")
    }

    func testRefusedSilentAndMisbehavingHostsFailClearly() throws {
        let refused = StatusRecorder(.flashforge(host: "127.0.0.1", port: closedLoopbackPort(), serial: Self.serial, checkCode: Self.code))
        refused.expect(10, "refused") { $0.failure == .refused }

        let server = try printer()
        let recorder = StatusRecorder(endpoint(server))
        recorder.awaitStatus(10, "live") { _ in true }
        for (mode, expected) in [("garbage", "not JSON"), ("huge", "larger than 10 MB"), ("huge_chunked", "larger than 10 MB"), ("close", "")] {
            let mark = recorder.all.count
            XCTAssertEqual(server.perform(["cmd": "mode", "mode": mode, "bytes": 11_000_000])?.name, "done")
            let failed = recorder.expect(10, "a failure in mode \(mode)", from: mark) { update in
                guard case .protocolError(let detail) = update.failure else { return false }
                return expected.isEmpty || detail.contains(expected)
            }
            XCTAssertFalse(failed?.failure?.userMessage.contains(Self.code) ?? true)
            let retried = recorder.all.count
            server.send(["cmd": "mode", "mode": "normal"])
            recorder.expect(10, "live again after \(mode)", from: retried) { $0.connection == .live }
        }
        let nested = (0..<100).reduce([String: Any]()) { inner, _ in ["n": inner] }
        let mark = recorder.all.count
        set(server, ["extra": nested])
        recorder.expect(10, "too deep", from: mark) { update in
            guard case .protocolError(let detail) = update.failure else { return false }
            return detail.contains(String(JSONPruner.depth))
        }
        set(server, ["extra": 0])
        let stalled = recorder.all.count
        server.send(["cmd": "mode", "mode": "stall"])
        recorder.expect(25, "a stalled printer times out", from: stalled) { $0.failure == .timeout }
    }

    func testHostileNumbersAreDroppedAndNamesKeptAsText() throws {
        let server = try printer()
        let recorder = StatusRecorder(endpoint(server))
        recorder.awaitStatus(10, "live") { $0.state == .idle }
        set(server, ["status": "printing", "printFileName": "/data/<span foreground=\"red\">x&amp;.gx", "printProgress": 1e308,
                     "printLayer": -5, "targetPrintLayer": 1e308, "estimatedTime": -1, "rightTemp": 1e308,
                     "platTemp": "NaN", "platTargetTemp": "inf", "chamberTemp": "-inf", "lightStatus": ["open"]])
        let hostile = try XCTUnwrap(recorder.awaitStatus(10, "printing") { $0.state == .printing })
        XCTAssertEqual(hostile.job, "<span foreground=\"red\">x&amp;.gx", "kept as text: the views escape it")
        XCTAssertNil(hostile.progress, "1e308 is no fraction")
        XCTAssertNil(hostile.layer)
        XCTAssertNil(hostile.totalLayers)
        XCTAssertNil(hostile.timeLeft)
        XCTAssertEqual(hostile.nozzles, [])
        XCTAssertNil(hostile.bed)
        XCTAssertNil(hostile.chamber)
        XCTAssertNil(hostile.chamberLight)
        set(server, ["printProgress": 2.5])
        let mark = recorder.all.count
        Thread.sleep(forTimeInterval: 2.5)
        XCTAssertTrue(recorder.all.dropFirst(mark).allSatisfy { $0.status?.progress == nil }, "250 % is no progress")
    }

    func testTheCameraIsTheOneItsStatusNames() throws {
        let server = try printer()
        XCTAssertEqual(try CameraImport.cameras(at: endpoint(server)), [], "an empty cameraStreamUrl: no camera (an AD5X without one)")
        set(server, ["cameraStreamUrl": "http://127.0.0.1:8080/?action=stream"])
        let cameras = try CameraImport.cameras(at: endpoint(server))
        XCTAssertEqual(cameras.map(\.url), ["http://127.0.0.1:8080/?action=stream"])
        XCTAssertEqual(cameras.first?.service, "mjpeg")
        set(server, ["cameraStreamUrl": "file:///etc/passwd"])
        XCTAssertEqual(try CameraImport.cameras(at: endpoint(server)), [], "only an http:// camera is taken")
        XCTAssertThrowsError(try CameraImport.cameras(at: endpoint(server, code: "00000000"))) { error in
            XCTAssertEqual((error as? StatusFailure)?.kind, "authRejected")
        }
    }
}
