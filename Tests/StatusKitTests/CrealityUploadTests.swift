import Foundation
@testable import StatusKit
import StreamKit
import TestSupport
import XCTest

/// Sending G-code to the fake Creality printer (Tests/Servers/creality_ws_server.py): its web
/// server's `POST /upload/NAME` on the websocket's port (the printer's is port 80) stores what
/// arrives as its hash, and `opGcodeFile` on the status websocket starts a stored file. The model
/// the printer names decides whether anything is sent.
final class CrealityUploadTests: XCTestCase {
    private func printer() throws -> (server: TestServer, endpoint: StatusEndpoint) {
        let server = try TestServer(script: "creality_ws_server.py")
        addTeardownBlock { server.stop() }
        return (server, .creality(host: "127.0.0.1", port: server.port, uploadPort: server.port))
    }

    /// The printer's status once it is idle, read by a monitor that sends commands too.
    private func idle(_ endpoint: StatusEndpoint) -> StatusRecorder {
        let recorder = StatusRecorder(endpoint)
        recorder.awaitStatus(10, "idle") { $0.state == .idle }
        return recorder
    }

    private func opGcodeFiles(_ server: TestServer) -> [String] {
        server.events(named: "request").compactMap { ($0.fields["params"] as? [String: Any])?["opGcodeFile"] as? String }
    }

    func testTheFileArrivesWholeAndOpGcodeFileStartsIt() throws {
        let (server, endpoint) = try printer()
        let recorder = idle(endpoint)
        let url = try TestPrintFiles.make("cube v2.gcode", in: makeTemporaryDirectory(), bytes: 3_000_000)
        let seen = ProgressLog<PrintFileSending.Progress>()
        let result = PrintFileSending(file: try PrintFile(url: url), printer: "K1C", endpoint: endpoint)
            .run(given: recorder.all.last, monitor: recorder.monitor) { seen.add($0) }

        XCTAssertEqual(result.kind, .started, result.message)
        XCTAssertEqual(result.message, "Printing “cube v2.gcode”.")
        let upload = try XCTUnwrap(server.waitFor("upload"))
        XCTAssertEqual(upload.string("name"), "cube_v2.gcode", "the name in the URL, spaces made _ as Creality Print's host does")
        XCTAssertEqual(upload.fields["complete"] as? Bool, true)
        XCTAssertEqual(upload.string("sha256"), try TestPrintFiles.sha256(url), "the printer has the file's very bytes")
        XCTAssertEqual(upload.fields["fields"] as? [String: String], ["path": ""])
        XCTAssertEqual(seen.all.last?.sent, 3_000_000)
        XCTAssertEqual(opGcodeFiles(server), ["printprt:/usr/data/printer_data/gcodes/cube_v2.gcode"])
        XCTAssertEqual(server.waitFor("print-started")?.string("sha256"), upload.string("sha256"), "the file it stored is what prints")
        recorder.awaitStatus(10, "printing the sent file") { $0.state == .printing && $0.job == "cube_v2.gcode" }
    }

    /// The files the printer's storage holds, parts too: name → size.
    private func files(_ server: TestServer) -> [String: Int]? {
        (server.perform(["cmd": "files"])?.fields["files"] as? [String: [String: Any]])?.mapValues { ($0["size"] as? Int) ?? -1 }
    }

    /// That the part an interrupted upload left of `name` was deleted as the printer's web page
    /// deletes a file, and no print was asked for.
    private func assertPartDeleted(_ server: TestServer, name: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let upload = try XCTUnwrap(server.waitFor("upload"), file: file, line: line)
        XCTAssertEqual(upload.fields["complete"] as? Bool, false, "the printer got part of the file", file: file, line: line)
        XCTAssertGreaterThan(upload.int("size") ?? 0, 0, file: file, line: line)
        let deleted = try XCTUnwrap(server.waitFor("deleted"), file: file, line: line)
        XCTAssertEqual(deleted.string("path"), "/usr/data/printer_data/gcodes/" + name, file: file, line: line)
        XCTAssertEqual(deleted.fields["existed"] as? Bool, true, "the part was there to delete", file: file, line: line)
        XCTAssertEqual(files(server), [:], "nothing is left in the printer's storage", file: file, line: line)
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertEqual(opGcodeFiles(server), ["deleteprt:/usr/data/printer_data/gcodes/" + name], "no print was asked for",
                       file: file, line: line)
        XCTAssertTrue(server.events(named: "print-started").isEmpty, file: file, line: line)
    }

    func testACancelledUploadStartsNothingAndItsPartIsDeleted() throws {
        let (server, endpoint) = try printer()
        let url = try TestPrintFiles.make("long file.gcode", in: makeTemporaryDirectory(), bytes: 8 * HTTPUpload.chunkBytes)
        let stop = StopSignal()
        let outcome = endpoint.family.send(try PrintFile(url: url), to: endpoint, plate: 1, stop: stop) { _ in stop.stop() }

        XCTAssertEqual(outcome, .cancelled)
        try assertPartDeleted(server, name: "long_file.gcode")
        XCTAssertLessThan(server.events(named: "upload").first?.int("size") ?? .max, 8 * HTTPUpload.chunkBytes)
    }

    func testAnUploadTheNetworkBreaksOffFailsStartsNothingAndItsPartIsDeleted() throws {
        let (server, endpoint) = try printer()
        XCTAssertNotNil(server.perform(["cmd": "break_upload", "after": 2 * HTTPUpload.chunkBytes]))
        let url = try TestPrintFiles.make("broken.gcode", in: makeTemporaryDirectory(), bytes: 8 * HTTPUpload.chunkBytes)
        let outcome = endpoint.family.send(try PrintFile(url: url), to: endpoint, plate: 1, stop: StopSignal()) { _ in }

        guard case .failed = outcome else { return XCTFail("\(outcome) is no failure") }
        try assertPartDeleted(server, name: "broken.gcode")
        XCTAssertLessThanOrEqual(server.events(named: "upload").first?.int("size") ?? .max, 2 * HTTPUpload.chunkBytes,
                                 "cut where the network broke")
    }

    func testAK2IsRefusedBeforeAByteIsSent() throws {
        let (server, endpoint) = try printer()
        server.send(["cmd": "set", "fields": ["model": "F008"]])  // a K2 Plus's board code
        XCTAssertNotNil(server.waitFor("done"))
        let url = try TestPrintFiles.make("cube.gcode", in: makeTemporaryDirectory(), bytes: 10_000)
        let outcome = endpoint.family.send(try PrintFile(url: url), to: endpoint, plate: 1, stop: StopSignal()) { _ in
            XCTFail("nothing is sent")
        }

        XCTAssertEqual(outcome, .refused("A Creality K2 Plus starts a print only with its filament slots chosen for it. Send the file from Creality Print, then watch the print here."))
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertTrue(server.events(named: "upload").isEmpty, "0 bytes sent")
        XCTAssertTrue(opGcodeFiles(server).isEmpty)
    }

    func testAPrinterThatNamesNoModelIsRefused() throws {
        let (server, endpoint) = try printer()
        server.send(["cmd": "set", "fields": ["model": "", "modelVersion": ""]])
        XCTAssertNotNil(server.waitFor("done"))
        let url = try TestPrintFiles.make("cube.gcode", in: makeTemporaryDirectory(), bytes: 10_000)
        let outcome = endpoint.family.send(try PrintFile(url: url), to: endpoint, plate: 1, stop: StopSignal()) { _ in }

        XCTAssertEqual(outcome, .refused("Layerwatch sends files only to Creality K1 and Ender-3 V3 printers, and this one did not say its model. Send the file from Creality Print."))
        XCTAssertTrue(server.events(named: "upload").isEmpty)
    }

    func testProjectsAndBinaryGCodeAreRefusedSayingWhy() throws {
        let (server, endpoint) = try printer()
        let why = "Creality printers print G-code files, not 3MF projects or binary G-code"
        XCTAssertEqual(endpoint.family.refusal(of: .project3MF), why)
        XCTAssertEqual(endpoint.family.refusal(of: .binaryGCode), why)
        XCTAssertNil(endpoint.family.refusal(of: .gcode))
        let url = try TestPrintFiles.make("plate.gcode.3mf", in: makeTemporaryDirectory(), bytes: 10_000)
        XCTAssertEqual(endpoint.family.send(try PrintFile(url: url), to: endpoint, plate: 1, stop: StopSignal()) { _ in }, .refused(why))
        Thread.sleep(forTimeInterval: 0.3)
        XCTAssertTrue(server.events(named: "upload").isEmpty, "nothing was sent")
        XCTAssertTrue(server.events(named: "connected").isEmpty, "not even the model was asked")
    }
}
