import Foundation
@testable import StatusKit
import StreamKit
import TestSupport
import XCTest

/// What a Creality printer says it is, read once over its status websocket for the printer dialog's
/// Test Connection (the fake printer Tests/Servers/creality_ws_server.py): its model fields as it
/// sends them, asked for as Creality Print asks, and the failures a status connection has.
final class CrealityIdentityTests: XCTestCase {
    private func printer() throws -> TestServer {
        let server = try TestServer(script: "creality_ws_server.py")
        addTeardownBlock { server.stop() }
        return server
    }

    private func command(_ server: TestServer, _ command: [String: Any]) {
        let before = server.events(named: "done").count
        server.send(command)
        let deadline = Date().addingTimeInterval(10)
        while server.events(named: "done").count <= before && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertGreaterThan(server.events(named: "done").count, before, "the fake printer took \(command)")
    }

    func testAK1CSaysItsModelWhenAsked() throws {
        let server = try printer()
        let identity = try CrealityIdentity.read(host: "127.0.0.1", port: server.port, stop: StopSignal())
        XCTAssertEqual(identity, CrealityIdentity(model: "K1C", modelVersion: nil, webrtcSupport: false))
        let request = server.waitFor("request")
        XCTAssertEqual(request?.string("method"), "get")
        XCTAssertEqual((request?.fields["params"] as? [String: Any])?["ReqPrinterPara"] as? Int, 1, "what Creality Print asks")
    }

    func testAK2PlusSaysItsBoardAndWebRTC() throws {
        let server = try printer()
        command(server, ["cmd": "set", "fields": ["model": "F008", "modelVersion": "Printer HW Ver: F008; Printer SW Ver: 1.1.3.3",
                                                   "webrtcSupport": 1]])
        let identity = try CrealityIdentity.read(host: "127.0.0.1", port: server.port, stop: StopSignal())
        XCTAssertEqual(identity, CrealityIdentity(model: "F008", modelVersion: "Printer HW Ver: F008; Printer SW Ver: 1.1.3.3",
                                                  webrtcSupport: true))
    }

    /// Firmware that does not name its model still reports its status: the answer says nothing of
    /// the model, after the wait; a long model text is cut.
    func testAPrinterThatNamesNoModelIsStillAPrinter() throws {
        let server = try printer()
        command(server, ["cmd": "set", "fields": ["model": NSNull(), "webrtcSupport": NSNull()]])
        let started = Date()
        let identity = try CrealityIdentity.read(host: "127.0.0.1", port: server.port, wait: 1, stop: StopSignal())
        XCTAssertEqual(identity, CrealityIdentity())
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 1, "it waited for a model")

        command(server, ["cmd": "set", "fields": ["model": String(repeating: "K", count: 10_000)]])
        let long = try CrealityIdentity.read(host: "127.0.0.1", port: server.port, stop: StopSignal())
        XCTAssertEqual(long.model?.count, CrealityIdentity.maximumText)
    }

    func testFailuresAreAStatusConnectionsOwn() throws {
        XCTAssertThrowsError(try CrealityIdentity.read(host: "127.0.0.1", port: closedLoopbackPort(), stop: StopSignal())) {
            XCTAssertEqual($0 as? StatusFailure, .refused)
        }
        let silent = try printer()
        command(silent, ["cmd": "mode", "mode": "silent"])
        XCTAssertThrowsError(try CrealityIdentity.read(host: "127.0.0.1", port: silent.port, wait: 1, stop: StopSignal())) {
            XCTAssertEqual($0 as? StatusFailure, .timeout, "connected, but no status came")
        }
        let camera = try TestServer(script: "mjpeg_server.py")
        addTeardownBlock { camera.stop() }
        XCTAssertThrowsError(try CrealityIdentity.read(host: "127.0.0.1", port: camera.port, stop: StopSignal())) {
            XCTAssertEqual($0 as? StatusFailure, .notFound, "an HTTP server that is no printer's websocket")
        }
    }
}
