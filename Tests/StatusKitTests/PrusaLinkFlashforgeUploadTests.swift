import Foundation
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// Sending a file to print to the PrusaLink and Flashforge fakes, which store what they receive
/// (its hash) and start it: PrusaLink's PUT goes once, with the Digest answer from a challenge a
/// GET fetched first, and a cancelled PUT's partial file is deleted; Flashforge's multipart upload
/// carries its serial number, check code and size as headers, and a wrong check code is told in
/// words; kinds a family cannot print are refused before a byte goes.
final class PrusaLinkFlashforgeUploadTests: XCTestCase {
    private static let password = "Pr1ntPass"
    private static let (serial, code) = ("SNMOMC9900001", "12345678")

    private func server(_ script: String, _ arguments: [String] = []) throws -> TestServer {
        let server = try TestServer(script: script, arguments: arguments)
        addTeardownBlock { server.stop() }
        return server
    }

    private func prusa(_ server: TestServer, password: String = password) -> StatusEndpoint {
        .prusaLink(host: "127.0.0.1", port: server.port, password: password)
    }

    private func flashforge(_ server: TestServer, code: String = code) -> StatusEndpoint {
        .flashforge(host: "127.0.0.1", port: server.port, serial: Self.serial, checkCode: code)
    }

    private func send(_ url: URL, to endpoint: StatusEndpoint, recorder: StatusRecorder) throws -> PrintFileSending.Result {
        try PrintFileSending(file: PrintFile(url: url), printer: "Printer", endpoint: endpoint)
            .run(given: recorder.all.last, monitor: recorder.monitor) { _ in }
    }

    func testPrusaLinkGetsTheFileOnceWithItsDigestAnswerAndPrintsIt() throws {
        let printer = try server("prusalink_server.py", ["--password", Self.password])
        let recorder = StatusRecorder(prusa(printer))
        recorder.awaitStatus(10, "idle") { $0.state == .idle }
        let url = try TestPrintFiles.make("gear 2.bgcode", in: makeTemporaryDirectory(), bytes: 2_000_000)
        let result = try send(url, to: prusa(printer), recorder: recorder)

        XCTAssertEqual(result.kind, .started, result.message)
        let upload = try XCTUnwrap(printer.waitFor("upload"))
        XCTAssertEqual(upload.string("name"), "gear 2.bgcode")
        XCTAssertEqual(upload.string("sha256"), try TestPrintFiles.sha256(url))
        let puts = printer.events(named: "request").filter { $0.string("method") == "PUT" }
        XCTAssertEqual(puts.count, 1, "the file goes once: the challenge came before it")
        XCTAssertEqual(puts.first?.string("path"), "/api/v1/files/usb/gear%202.bgcode")
        XCTAssertEqual(puts.first?.fields["authorized"] as? Bool, true)
        recorder.awaitStatus(10, "printing the file sent") { $0.state == .printing && $0.job == "gear 2.bgcode" }
    }

    func testACancelledPrusaLinkUploadStartsNothingAndItsPartialFileIsDeleted() throws {
        let printer = try server("prusalink_server.py", ["--password", Self.password])
        let recorder = StatusRecorder(prusa(printer))
        recorder.awaitStatus(10, "idle") { $0.state == .idle }
        XCTAssertNotNil(printer.perform(["cmd": "upload_rate", "bytes_per_second": 2_000_000]))
        let url = try TestPrintFiles.make("slow.gcode", in: makeTemporaryDirectory(), bytes: 20_000_000)
        let sending = PrintFileSending(file: try PrintFile(url: url), printer: "MK4", endpoint: prusa(printer))
        let seen = ProgressLog()
        let update = recorder.all.last
        let ended = ResultBox()
        Thread.detachNewThread { ended.give(sending.run(given: update, monitor: recorder.monitor) { seen.add($0) }) }
        XCTAssertTrue(waitUntil(timeout: 10) { (seen.all.last?.sent ?? 0) > 3_000_000 })
        sending.cancel()

        XCTAssertEqual(try XCTUnwrap(ended.wait(timeout: 10)).kind, .cancelled)
        XCTAssertEqual(printer.waitFor("upload")?.fields["complete"] as? Bool, false)
        XCTAssertEqual(printer.waitFor("deleted")?.string("name"), "slow.gcode", "the partial file is deleted")
        Thread.sleep(forTimeInterval: 1)
        XCTAssertFalse(recorder.all.contains { $0.status?.state == .printing }, "no print started")
    }

    func testPrusaLinkRefusesA3MFProjectBeforeAByteGoes() throws {
        let printer = try server("prusalink_server.py", ["--password", Self.password])
        let recorder = StatusRecorder(prusa(printer))
        recorder.awaitStatus(10, "idle") { $0.state == .idle }
        let url = try TestPrintFiles.make("plate.3mf", in: makeTemporaryDirectory(), bytes: 1000)
        let result = try send(url, to: prusa(printer), recorder: recorder)

        XCTAssertEqual(result.kind, .refused)
        XCTAssertEqual(result.message, "Prusa printers print G-code and binary G-code files, not 3MF projects")
        XCTAssertTrue(printer.events(named: "request").allSatisfy { $0.string("method") != "PUT" })
    }

    func testFlashforgeGetsTheFileWithItsHeadersAndPrintsIt() throws {
        let printer = try server("flashforge_server.py")
        let recorder = StatusRecorder(flashforge(printer))
        recorder.awaitStatus(10, "ready") { $0.state == .idle }
        let url = try TestPrintFiles.make("cube.gcode", in: makeTemporaryDirectory(), bytes: 1_500_000)
        let result = try send(url, to: flashforge(printer), recorder: recorder)

        XCTAssertEqual(result.kind, .started, result.message)
        let upload = try XCTUnwrap(printer.waitFor("upload"))
        XCTAssertEqual(upload.string("sha256"), try TestPrintFiles.sha256(url), "the printer has the file's very bytes")
        XCTAssertEqual(upload.fields["complete"] as? Bool, true)
        recorder.awaitStatus(10, "printing the file sent") { $0.state == .printing && $0.job == "cube.gcode" }
    }

    func testAWrongFlashforgeCheckCodeIsToldAndNothingPrints() throws {
        let printer = try server("flashforge_server.py")
        let recorder = StatusRecorder(flashforge(printer))
        recorder.awaitStatus(10, "ready") { $0.state == .idle }
        let url = try TestPrintFiles.make("cube.gcode", in: makeTemporaryDirectory(), bytes: 100_000)
        let result = try send(url, to: flashforge(printer, code: "87654321"), recorder: recorder)

        XCTAssertEqual(result.kind, .failed)
        XCTAssertTrue(result.message.contains("rejected"), result.message)
        XCTAssertFalse(result.message.contains("87654321"))
        XCTAssertTrue(printer.events(named: "upload").isEmpty)
    }
}
