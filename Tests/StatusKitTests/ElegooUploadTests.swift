import Foundation
@testable import StatusKit
import StreamKit
import TestSupport
import XCTest

/// Sending G-code to the fake Centauri Carbon (Tests/Servers/elegoo_sdcp_server.py): its upload
/// endpoint on the SDCP port takes 1 MiB chunks in order and checks the MD5 once the file is whole,
/// as the printer does; Cmd 128 through the status connection then starts what it kept.
final class ElegooUploadTests: XCTestCase {
    private func printer() throws -> (server: TestServer, endpoint: StatusEndpoint) {
        let server = try TestServer(script: "elegoo_sdcp_server.py", arguments: ["--interval", "0.3"])
        addTeardownBlock { server.stop() }
        return (server, .elegoo(host: "127.0.0.1", port: server.port))
    }

    /// A G-code-named file of `size` random bytes, and its SHA-256.
    private func gcode(_ name: String, size: Int) throws -> (file: PrintFile, sha256: String) {
        let url = try makeTemporaryDirectory().appendingPathComponent(name)
        let random = try XCTUnwrap(FileHandle(forReadingAtPath: "/dev/urandom"))
        try random.readData(ofLength: size).write(to: url)
        try random.close()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [url.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let hash = String(String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).prefix(64))
        process.waitUntilExit()
        return (try PrintFile(url: url), hash)
    }

    private func send(_ file: PrintFile, to endpoint: StatusEndpoint,
                      progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }) -> UploadOutcome {
        endpoint.family.send(file, to: endpoint, plate: 1, stop: StopSignal(), progress: progress)
    }

    func testGCodeArrivesByteForByteInChunksAndCmd128StartsIt() throws {
        let (server, endpoint) = try printer()
        let (file, hash) = try gcode("benchy_PLA.gcode", size: 2 * ElegooUpload.chunkSize + 12_345)
        let seen = ProgressLog<UploadProgress>()
        XCTAssertEqual(send(file, to: endpoint, progress: seen.add), .uploaded(remoteName: "benchy_PLA.gcode"))

        let stored = try XCTUnwrap(server.waitFor("upload-stored"))
        XCTAssertEqual(stored.string("name"), "benchy_PLA.gcode")
        XCTAssertEqual(stored.string("sha256"), hash, "the printer keeps exactly the file's bytes")
        XCTAssertEqual(server.events(named: "upload-chunk").compactMap { $0.int("offset") },
                       [0, ElegooUpload.chunkSize, 2 * ElegooUpload.chunkSize], "1 MiB chunks, in order")
        XCTAssertEqual(seen.all.map(\.sent), [Int64(ElegooUpload.chunkSize), Int64(2 * ElegooUpload.chunkSize), file.size])

        let recorder = StatusRecorder(endpoint)
        recorder.awaitStatus(10, "idle") { $0.state == .idle }
        XCTAssertEqual(recorder.send(.printFile("benchy_PLA.gcode", plate: 1)), .done)
        recorder.awaitStatus(10, "printing the sent file") { $0.state == .printing && $0.job == "benchy_PLA.gcode" }
        let start = try XCTUnwrap(server.events(named: "request").first { $0.int("cmd") == 128 }?.fields["data"] as? [String: Any])
        XCTAssertEqual(start["Filename"] as? String, "/local/benchy_PLA.gcode")
        XCTAssertEqual(start["StartLayer"] as? Int, 0)
    }

    func testAWrongMD5IsRefusedAndNothingCanStart() throws {
        let (server, endpoint) = try printer()
        XCTAssertNotNil(server.perform(["cmd": "corrupt_uploads"]))
        let (file, _) = try gcode("cube.gcode", size: ElegooUpload.chunkSize + 1)
        XCTAssertEqual(send(file, to: endpoint), .refused("The Elegoo printer refused the file: the file's MD5 does not match"))
        XCTAssertEqual(server.waitFor("upload-refused")?.string("reason"), "md5")
        XCTAssertEqual((server.perform(["cmd": "files"])?.fields["files"] as? [String: Any])?.isEmpty, true)

        let recorder = StatusRecorder(endpoint)
        recorder.awaitStatus(10, "idle") { $0.state == .idle }
        XCTAssertEqual(recorder.send(.printFile("cube.gcode", plate: 1)), .refused("the Elegoo printer did not find the print's file"))
    }

    /// The files the printer holds, parts of transfers too: name → bytes.
    private func files(_ server: TestServer) -> [String: Int]? {
        server.perform(["cmd": "files"])?.fields["files"] as? [String: Int]
    }

    /// What the printer was asked to do about the transfer `uuid` of `name` once it was
    /// interrupted: end it (Cmd 255), then delete its part (Cmd 259), and never start it (Cmd 128).
    private func assertPartRemoved(_ server: TestServer, transfer uuid: String?, name: String,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        let requests = server.events(named: "request")
        XCTAssertEqual(requests.compactMap { $0.int("cmd") }, [255, 259], "end, then delete; never a start", file: file, line: line)
        let end = try XCTUnwrap(requests.first { $0.int("cmd") == 255 }?.fields["data"] as? [String: Any], file: file, line: line)
        XCTAssertEqual(end["Uuid"] as? String, uuid, "the transfer's own Uuid", file: file, line: line)
        XCTAssertEqual(end["FileName"] as? String, name, file: file, line: line)
        let delete = try XCTUnwrap(requests.first { $0.int("cmd") == 259 }?.fields["data"] as? [String: Any], file: file, line: line)
        XCTAssertEqual(delete["FileList"] as? [String], ["/local/" + name], file: file, line: line)
        XCTAssertEqual(files(server), [:], "the part is gone from the printer's storage", file: file, line: line)
    }

    func testACancelledUploadStopsBetweenChunksAndItsPartIsDeleted() throws {
        let (server, endpoint) = try printer()
        let (file, _) = try gcode("long.gcode", size: 4 * ElegooUpload.chunkSize)
        let stop = StopSignal()
        let outcome = endpoint.family.send(file, to: endpoint, plate: 1, stop: stop) { _ in stop.stop() }
        XCTAssertEqual(outcome, .cancelled)
        let chunks = server.events(named: "upload-chunk")
        XCTAssertEqual(chunks.count, 1, "no chunk after the cancel")
        try assertPartRemoved(server, transfer: chunks.first?.string("uuid"), name: "long.gcode")
    }

    func testAnUploadTheNetworkBreaksOffFailsAndItsPartIsDeleted() throws {
        let (server, endpoint) = try printer()
        XCTAssertNotNil(server.perform(["cmd": "break_upload", "after": 2]))
        let (file, _) = try gcode("broken.gcode", size: 3 * ElegooUpload.chunkSize + 10)
        let outcome = send(file, to: endpoint)
        guard case .failed = outcome else { return XCTFail("\(outcome) is no failure") }
        XCTAssertNotNil(server.waitFor("upload-broken"), "the third chunk's connection was cut")
        let chunks = server.events(named: "upload-chunk")
        XCTAssertEqual(chunks.compactMap { $0.int("offset") }, [0, ElegooUpload.chunkSize], "two chunks arrived")
        try assertPartRemoved(server, transfer: chunks.first?.string("uuid"), name: "broken.gcode")
    }

    func testProjectsAndBinaryGCodeAreRefusedSayingWhy() throws {
        let (server, endpoint) = try printer()
        let why = "The Elegoo Centauri Carbon prints G-code files, not 3MF projects or binary G-code"
        XCTAssertEqual(endpoint.family.refusal(of: .project3MF), why)
        XCTAssertEqual(endpoint.family.refusal(of: .binaryGCode), why)
        XCTAssertNil(endpoint.family.refusal(of: .gcode))
        let url = try makeTemporaryDirectory().appendingPathComponent("plate.3mf")
        try Data("PK".utf8).write(to: url)
        XCTAssertEqual(send(try PrintFile(url: url), to: endpoint), .refused(why))
        XCTAssertTrue(server.events(named: "upload-chunk").isEmpty, "nothing was sent")
    }

    func testTheMD5IsTheFilesAsTheSpecificationComputesIt() throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("abc.gcode")
        try Data("abc".utf8).write(to: url)
        XCTAssertEqual(ElegooUpload.md5(of: url, stop: StopSignal()), "900150983cd24fb0d6963f7d28e17f72")  // RFC 1321's test suite
    }
}
