import Foundation
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// Sending a file to print to the Moonraker fake, which stores what it receives (its hash) and
/// starts it with print=true: the bytes arrive whole and the status then shows it printing; a
/// busy printer and a 3MF project are refused before a byte goes; a cancelled upload starts
/// nothing and its partial file is deleted; a wrong key is told in the user's words; a large file
/// goes in bounded memory.
final class MoonrakerUploadTests: XCTestCase {
    private func moonraker(_ arguments: [String] = []) throws -> TestServer {
        let server = try TestServer(script: "moonraker_server.py", arguments: arguments)
        addTeardownBlock { server.stop() }
        return server
    }

    private func idle(_ server: TestServer, key: String? = nil) -> StatusRecorder {
        let recorder = StatusRecorder(.moonraker(host: "127.0.0.1", port: server.port, apiKey: key))
        recorder.awaitStatus(10, "standby") { $0.state == .idle }
        return recorder
    }

    private func uploadRequests(_ server: TestServer) -> [TestServer.Event] {
        server.events(named: "request").filter { $0.string("path") == "/server/files/upload" }
    }

    func testTheFileArrivesWholeAndThePrinterThenReportsPrintingIt() throws {
        let server = try moonraker(["--api-key", "MOONKEY42"])
        let recorder = idle(server, key: "MOONKEY42")
        let url = try TestPrintFiles.make("cube v2.gcode", in: makeTemporaryDirectory(), bytes: 3_000_000)
        let sending = PrintFileSending(file: try PrintFile(url: url), printer: "Voron",
                                       endpoint: .moonraker(host: "127.0.0.1", port: server.port, apiKey: "MOONKEY42"))
        let seen = ProgressLog()
        let result = sending.run(given: recorder.all.last, monitor: recorder.monitor) { seen.add($0) }

        XCTAssertEqual(result.kind, .started, result.message)
        XCTAssertEqual(result.message, "Printing “cube v2.gcode”.")
        let upload = try XCTUnwrap(server.waitFor("upload"))
        XCTAssertEqual(upload.string("name"), "cube v2.gcode")
        XCTAssertEqual(upload.fields["complete"] as? Bool, true)
        XCTAssertEqual(upload.string("sha256"), try TestPrintFiles.sha256(url), "the printer has the file's very bytes")
        XCTAssertEqual(upload.fields["fields"] as? [String: String], ["root": "gcodes", "print": "true"])
        XCTAssertEqual(uploadRequests(server).first?.fields["authorized"] as? Bool, true, "the key goes with the file")
        XCTAssertEqual(seen.all.last?.sent, 3_000_000, "the last progress is the whole file")
        recorder.awaitStatus(10, "printing the file sent") { $0.state == .printing && $0.job == "cube v2.gcode" }
    }

    func testABusyPrinterIsRefusedBeforeAByteIsSent() throws {
        let server = try moonraker()
        let recorder = idle(server)
        server.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "other.gcode"]]])
        recorder.awaitStatus(10, "printing") { $0.state == .printing }
        let url = try TestPrintFiles.make("cube.gcode", in: makeTemporaryDirectory(), bytes: 10_000)
        let result = PrintFileSending(file: try PrintFile(url: url), printer: "Voron",
                                      endpoint: .moonraker(host: "127.0.0.1", port: server.port, apiKey: nil))
            .run(given: recorder.all.last, monitor: recorder.monitor) { _ in }

        XCTAssertEqual(result.kind, .refused)
        XCTAssertEqual(result.message, "“Voron” is printing: it can take a file when the print has ended.")
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertTrue(uploadRequests(server).isEmpty, "no byte was sent")
        XCTAssertTrue(server.events(named: "upload").isEmpty)
    }

    func testAPrinterWhoseStatusIsNotConnectedIsRefused() throws {
        let endpoint = StatusEndpoint.moonraker(host: "127.0.0.1", port: closedLoopbackPort(), apiKey: nil)
        let recorder = StatusRecorder(endpoint)
        let failed = try XCTUnwrap(recorder.expect(10, "a failed connection") { $0.failure != nil })
        let url = try TestPrintFiles.make("cube.gcode", in: makeTemporaryDirectory(), bytes: 10_000)
        let result = PrintFileSending(file: try PrintFile(url: url), printer: "Voron", endpoint: endpoint)
            .run(given: failed, monitor: recorder.monitor) { _ in XCTFail("nothing is sent") }

        XCTAssertEqual(result.kind, .refused)
        XCTAssertEqual(result.message, "“Voron” is not connected: it can take a file when its status is back.")
    }

    func testA3MFProjectIsRefusedSayingKlipperPrintsGCode() throws {
        let server = try moonraker()
        let recorder = idle(server)
        let url = try TestPrintFiles.make("plate.gcode.3mf", in: makeTemporaryDirectory(), bytes: 10_000)
        let result = PrintFileSending(file: try PrintFile(url: url), printer: "Voron",
                                      endpoint: .moonraker(host: "127.0.0.1", port: server.port, apiKey: nil))
            .run(given: recorder.all.last, monitor: recorder.monitor) { _ in }

        XCTAssertEqual(result.kind, .refused)
        XCTAssertEqual(result.message, "Klipper prints G-code files, not 3MF projects")
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertTrue(uploadRequests(server).isEmpty, "no byte was sent")
    }

    func testACancelledUploadStartsNoPrintAndItsPartialFileIsDeleted() throws {
        let server = try moonraker()
        let recorder = idle(server)
        XCTAssertNotNil(server.perform(["cmd": "upload_rate", "bytes_per_second": 2_000_000]))
        let url = try TestPrintFiles.make("slow.gcode", in: makeTemporaryDirectory(), bytes: 20_000_000)
        let sending = PrintFileSending(file: try PrintFile(url: url), printer: "Voron",
                                       endpoint: .moonraker(host: "127.0.0.1", port: server.port, apiKey: nil))
        let seen = ProgressLog()
        let update = recorder.all.last
        let ended = ResultBox()
        Thread.detachNewThread { ended.give(sending.run(given: update, monitor: recorder.monitor) { seen.add($0) }) }
        XCTAssertTrue(waitUntil(timeout: 10) { (seen.all.last?.sent ?? 0) > 3_000_000 }, "the upload is under way")
        // After a second the progress has a speed and a time left, in words.
        XCTAssertTrue(waitUntil(timeout: 10) { seen.all.last?.bytesPerSecond != nil })
        let progress = try XCTUnwrap(seen.all.last)
        XCTAssertGreaterThan(try XCTUnwrap(progress.secondsLeft), 0)
        XCTAssertEqual(progress.total, 20_000_000)
        XCTAssertTrue(progress.summary.contains(" of 20 MB — ") && progress.summary.contains("/s, ")
                      && progress.summary.hasSuffix(" left"), progress.summary)
        sending.cancel()
        let result = try XCTUnwrap(ended.wait(timeout: 10), "the cancel ends the sending at once")

        XCTAssertEqual(result.kind, .cancelled)
        XCTAssertEqual(result.message, "Cancelled: nothing was printed.")
        let upload = try XCTUnwrap(server.waitFor("upload"))
        XCTAssertEqual(upload.fields["complete"] as? Bool, false, "the printer got part of the file")
        XCTAssertLessThan(upload.int("size") ?? .max, 20_000_000)
        XCTAssertEqual(server.waitFor("deleted")?.string("name"), "slow.gcode", "the partial file is deleted")
        Thread.sleep(forTimeInterval: 1)
        XCTAssertFalse(recorder.all.contains { $0.status?.state == .printing }, "no print started")
    }

    func testAWrongKeyIsToldInTheUsersWords() throws {
        let server = try moonraker(["--api-key", "MOONKEY42"])
        let recorder = idle(server, key: "MOONKEY42")
        let url = try TestPrintFiles.make("cube.gcode", in: makeTemporaryDirectory(), bytes: 1_000_000)
        let result = PrintFileSending(file: try PrintFile(url: url), printer: "Voron",
                                      endpoint: .moonraker(host: "127.0.0.1", port: server.port, apiKey: "WRONGKEY"))
            .run(given: recorder.all.last, monitor: recorder.monitor) { _ in }

        XCTAssertEqual(result.kind, .failed)
        XCTAssertEqual(result.message,
                       "The file was not sent: the printer rejected the access code or API key — check it in the printer's settings.")
        XCTAssertFalse(result.message.contains("WRONGKEY"))
        XCTAssertTrue(server.events(named: "upload").isEmpty, "the printer stored nothing")
    }

    /// 300 MB read from disk and sent: the process's peak resident memory grows by far less than
    /// the file (the figure itself is bench/UPLOAD.md's).
    func testA300MBFileIsSentInBoundedMemory() throws {
        let server = try moonraker()
        let recorder = idle(server)
        let size: Int64 = 300_000_000
        let url = try TestPrintFiles.makeSparse("large.gcode", in: makeTemporaryDirectory(), bytes: size)
        let sending = PrintFileSending(file: try PrintFile(url: url), printer: "Voron",
                                       endpoint: .moonraker(host: "127.0.0.1", port: server.port, apiKey: nil))
        let before = try XCTUnwrap(ProcessMemory.residentBytes)
        try ProcessMemory.resetPeak()
        let result = sending.run(given: recorder.all.last, monitor: recorder.monitor) { _ in }
        let peak = try XCTUnwrap(ProcessMemory.peakResidentBytes)

        XCTAssertEqual(result.kind, .started, result.message)
        XCTAssertEqual(server.waitFor("upload", timeout: 30)?.int("size"), Int(size))
        XCTAssertLessThan(peak - before, 60 * 1024 * 1024, "peak RSS grew by \((peak - before) / 1024) KiB")
    }
}

/// The progress reports a sending gave, from its thread.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [PrintFileSending.Progress] = []

    func add(_ progress: PrintFileSending.Progress) { lock.withLock { reports.append(progress) } }
    var all: [PrintFileSending.Progress] { lock.withLock { reports } }
}

/// A sending's result handed from the thread that ran it.
final class ResultBox: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var result: PrintFileSending.Result?

    func give(_ value: PrintFileSending.Result) {
        lock.withLock { result = value }
        done.signal()
    }

    func wait(timeout: TimeInterval) -> PrintFileSending.Result? {
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        return lock.withLock { result }
    }
}
