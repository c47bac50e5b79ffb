import Foundation
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// `HTTPFetch` against moonraker_server.py and octoprint_server.py in their fault modes: bodies
/// framed each way HTTP allows, answers over the limit or not HTTP at all refused, statuses read as
/// the callers expect, an https certificate nobody vouches for refused before the request, and a
/// server that stalls timed out or stopped.
final class HTTPFetchTests: XCTestCase {
    private var moonraker: TestServer!

    override func setUpWithError() throws {
        moonraker = try TestServer(script: "moonraker_server.py")
    }

    override func tearDown() {
        moonraker.stop()
    }

    private var query: URL { URL(string: "http://127.0.0.1:\(moonraker.port)/printer/objects/query?print_stats")! }

    private func mode(_ mode: String, bytes: Int? = nil) {
        var command: [String: Any] = ["cmd": "mode", "mode": mode]
        command["bytes"] = bytes
        moonraker.send(command)
        XCTAssertNotNil(moonraker.waitFor("done", timeout: 5) { $0.string("mode") == mode })
    }

    private func failure(_ url: URL, timeout: TimeInterval = 5, stop: StopSignal? = nil) -> HTTPFetch.Failure? {
        do {
            let body = try HTTPFetch.get(url, timeout: timeout, stop: stop)
            XCTFail("expected a failure, got \(body.count) bytes")
            return nil
        } catch {
            return error
        }
    }

    private func protocolDetail(_ url: URL) -> String {
        guard case .protocolError(let detail)? = failure(url)?.failure else { return "not a protocol error" }
        return detail
    }

    func testBodiesWithContentLengthChunksOrNeitherArriveWhole() throws {
        for mode in ["huge", "huge_chunked"] {
            self.mode(mode, bytes: 300_000)
            let body = try HTTPFetch.get(query, timeout: 5)
            XCTAssertEqual(body.count, 300_000, mode)
            let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
            XCTAssertNotNil(object?["pad"] as? String, mode)
            XCTAssertNotNil((object?["result"] as? [String: Any])?["status"], mode)
        }
        mode("unframed")
        let body = try HTTPFetch.get(query, timeout: 5)
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        let status = (object?["result"] as? [String: Any])?["status"] as? [String: Any]
        XCTAssertEqual((status?["print_stats"] as? [String: Any])?["state"] as? String, "standby")
    }

    func testAnswersOverTheLimitOrNotHTTPAreRefused() {
        for mode in ["huge", "huge_chunked"] {
            self.mode(mode)
            XCTAssertEqual(protocolDetail(query), "the answer is larger than 10 MB", mode)
        }
        mode("huge_chunked", bytes: 2_500_000)
        XCTAssertThrowsError(try HTTPFetch.get(query, timeout: 5, limit: 2_000_000)) {
            XCTAssertEqual(($0 as? HTTPFetch.Failure)?.failure, .protocolError("the answer is larger than 2 MB"))
        }
        mode("bad_headers")
        XCTAssertEqual(protocolDetail(query), "the server's answer is not HTTP")
        mode("close")
        XCTAssertEqual(protocolDetail(query), "the server closed the connection without answering")
        mode("500")
        XCTAssertEqual(protocolDetail(query), "the server answered 500 Internal Server Error")
    }

    func testStatusesMapAsTheCallersExpect() throws {
        XCTAssertEqual(failure(URL(string: "http://127.0.0.1:\(moonraker.port)/nope")!)?.failure, .notFound)
        let octoprint = try TestServer(script: "octoprint_server.py", arguments: ["--api-key", "OCTOKEY123456"])
        defer { octoprint.stop() }
        let printer = URL(string: "http://127.0.0.1:\(octoprint.port)/api/printer")!
        XCTAssertEqual(failure(printer)?.failure, .authRejected, "403 without the key")
        octoprint.send(["cmd": "set", "state": "Offline"])
        XCTAssertNotNil(octoprint.waitFor("done"))
        do {
            _ = try HTTPFetch.get(printer, headers: [("X-Api-Key", "OCTOKEY123456")], secrets: ["OCTOKEY123456"], timeout: 5)
            XCTFail("a 409 was expected")
        } catch {
            XCTAssertTrue(error.otherClientError, "\(error)")
        }
    }

    func testAnHTTPSCertificateNoAuthorityVouchesForGetsNoRequest() throws {
        let server = try TestServer(script: "hostile_http_server.py", arguments: ["--tls", "self-signed"])
        defer { server.stop() }
        let failure = failure(URL(string: "https://127.0.0.1:\(server.port)/stream")!)?.failure
        guard case .untrustedCertificate? = failure else { return XCTFail("\(String(describing: failure))") }
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertTrue(server.events(named: "request").isEmpty, "the request waits for a trusted certificate")
    }

    func testAStalledServerTimesOutAndAStopEndsTheWaitAtOnce() {
        mode("stall")
        var started = Date()
        XCTAssertEqual(failure(query, timeout: 1.5)?.failure, .timeout)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3.5)

        let stop = StopSignal()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { stop.stop() }
        started = Date()
        XCTAssertNotNil(failure(query, timeout: 30, stop: stop))
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
    }
}
