import Foundation
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// Moonraker, OctoPrint and go2rtc APIs behind a server that redirects every request
/// (Tests/Servers/redirect_server.py): an API key or password never reaches another port
/// (sink_server.py records every byte that arrives there), a redirect within the same origin is
/// followed with the key, and a loop stops after three.
final class HTTPRedirectTests: XCTestCase {
    private let key = "MOONKEY42ab"

    private func server(_ script: String, _ arguments: [String] = []) throws -> TestServer {
        let server = try TestServer(script: script, arguments: arguments)
        addTeardownBlock { server.stop() }
        return server
    }

    /// A sink for the other "host" and a server redirecting every request to it, path kept.
    private func redirectToSink() throws -> (sink: TestServer, redirect: TestServer) {
        let sink = try server("sink_server.py")
        let redirect = try server("redirect_server.py", ["--location", "http://127.0.0.1:\(sink.port){target}"])
        return (sink, redirect)
    }

    private func assertRefusedElsewhere(_ endpoint: StatusEndpoint, secret: String, sink: TestServer, redirect: TestServer,
                                        file: StaticString = #filePath, line: UInt = #line) {
        let logged = LogLines()
        StreamLog.handler = { _, line in logged.append(line) }
        defer { StreamLog.handler = nil }
        let recorder = StatusRecorder(endpoint)
        let failed = recorder.expect(10, "a refused redirect", file: file, line: line) { $0.failure != nil }
        if case .protocolError(let detail)? = failed?.failure {
            XCTAssertTrue(detail.contains("another address (http://127.0.0.1:\(sink.port))"), detail, file: file, line: line)
            XCTAssertTrue(detail.contains("API key"), detail, file: file, line: line)
            XCTAssertFalse(detail.contains(secret), detail, file: file, line: line)
        } else {
            XCTFail("expected a protocol error, saw \(recorder.all)", file: file, line: line)
        }
        XCTAssertNotNil(redirect.waitFor("request", timeout: 2) { ($0.fields["headers"] as? [String])?.contains("X-Api-Key") == true },
                        "the typed address did get the key", file: file, line: line)
        // The quick backoff retries within a second: let a few attempts happen.
        Thread.sleep(forTimeInterval: 1.5)
        XCTAssertGreaterThan(redirect.events(named: "request").count, 1, "retried", file: file, line: line)
        XCTAssertTrue(sink.events(named: "accepted").isEmpty, "the other port was never even connected to", file: file, line: line)
        XCTAssertFalse(sink.events(named: "data").contains { $0.string("text")?.contains(secret) == true }, file: file, line: line)
        XCTAssertFalse(logged.lines.contains { $0.contains(secret) }, "\(logged.lines)", file: file, line: line)
        XCTAssertTrue(logged.lines.contains { $0.contains("another address") }, "\(logged.lines)", file: file, line: line)
    }

    func testMoonrakerRedirectedToAnotherPortSendsItNoKeyWhileAKeylessRequestFollows() throws {
        let (sink, redirect) = try redirectToSink()
        assertRefusedElsewhere(.moonraker(host: "127.0.0.1", port: redirect.port, apiKey: key), secret: key, sink: sink, redirect: redirect)

        // The control: without a key the same redirect is followed, so the sink above was the
        // target and records what reaches it (it never answers: the request times out there).
        let url = URL(string: "http://127.0.0.1:\(redirect.port)/printer/objects/query?print_stats")!
        XCTAssertThrowsError(try HTTPFetch.get(url, timeout: 1.5)) { error in
            XCTAssertEqual((error as? HTTPFetch.Failure)?.failure, .timeout)
        }
        let request = sink.waitFor("data", timeout: 2)?.string("text") ?? ""
        XCTAssertTrue(request.hasPrefix("GET /printer/objects/query?print_stats HTTP/1.1\r\n"), request)
        XCTAssertTrue(request.contains("\r\nHost: 127.0.0.1:\(sink.port)\r\n"), request)
        XCTAssertFalse(request.contains("X-Api-Key") || request.contains("Authorization"), request)
    }

    func testOctoPrintRedirectedToAnotherPortSendsItNoKey() throws {
        let (sink, redirect) = try redirectToSink()
        assertRefusedElsewhere(.octoprint(host: "127.0.0.1", port: redirect.port, apiKey: "OCTOKEY123456"),
                               secret: "OCTOKEY123456", sink: sink, redirect: redirect)
        XCTAssertThrowsError(try CameraImport.cameras(at: .octoprint(host: "127.0.0.1", port: redirect.port, apiKey: "OCTOKEY123456"))) {
            guard case .protocolError(let detail)? = $0 as? StatusFailure else { return XCTFail("\($0)") }
            XCTAssertTrue(detail.contains("another address"), detail)
        }
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertTrue(sink.events(named: "accepted").isEmpty)
    }

    func testGo2RTCPasswordDoesNotFollowARedirectToAnotherPort() throws {
        let (sink, redirect) = try redirectToSink()
        let api = Go2RTCImport(host: "127.0.0.1", port: redirect.port, user: "farm", password: "Gr33nH0use")
        XCTAssertThrowsError(try api.cameras()) {
            guard case .protocolError(let detail)? = $0 as? StatusFailure else { return XCTFail("\($0)") }
            XCTAssertTrue(detail.contains("another address (http://127.0.0.1:\(sink.port))"), detail)
            XCTAssertTrue(detail.contains("password"), detail)
            XCTAssertFalse(detail.contains("Gr33nH0use") || detail.contains("farm:"), detail)
        }
        XCTAssertNotNil(redirect.waitFor("request", timeout: 2) { ($0.fields["headers"] as? [String])?.contains("Authorization") == true },
                        "the typed address did get the credentials")
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertTrue(sink.events(named: "accepted").isEmpty)
    }

    func testASameOriginRedirectIsFollowedWithTheKey() throws {
        let moonraker = try server("moonraker_server.py", ["--api-key", key])
        let proxy = try server("redirect_server.py", ["--location", "/moved{target}", "--upstream", "\(moonraker.port)"])
        let recorder = StatusRecorder(.moonraker(host: "127.0.0.1", port: proxy.port, apiKey: key))
        recorder.awaitStatus(10, "status through the moved API") { $0.state == .idle && $0.nozzles.count == 1 }
        XCTAssertNotNil(proxy.waitFor("relayed") { $0.int("status") == 200 && $0.string("path")?.hasPrefix("/printer/objects/query?") == true })
        XCTAssertTrue(moonraker.events(named: "request").allSatisfy { $0.fields["authorized"] as? Bool == true },
                      "the key went along within the origin")

        let octoprint = try server("octoprint_server.py", ["--api-key", "OCTOKEY123456"])
        let octoproxy = try server("redirect_server.py", ["--location", "/moved{target}", "--status", "307",
                                                          "--upstream", "\(octoprint.port)"])
        let cameras = try CameraImport.cameras(at: .octoprint(host: "127.0.0.1", port: octoproxy.port, apiKey: "OCTOKEY123456"))
        XCTAssertEqual(cameras.map(\.name), ["Classic Webcam"])
    }

    func testARedirectLoopStopsAfterThree() throws {
        let loop = try server("redirect_server.py", ["--location", "{target}"])
        let url = URL(string: "http://127.0.0.1:\(loop.port)/api/job")!
        XCTAssertThrowsError(try HTTPFetch.get(url, headers: [("X-Api-Key", key)], secrets: [key], timeout: 5)) {
            guard case .protocolError(let detail)? = ($0 as? HTTPFetch.Failure)?.failure else { return XCTFail("\($0)") }
            XCTAssertTrue(detail.contains("more than 3 times"), detail)
        }
        // The server's events arrive through a pipe: give the last one time to come, and a fifth to show up.
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(loop.events(named: "request").count, 4, "the first request and three redirects to the same URL")
    }
}
