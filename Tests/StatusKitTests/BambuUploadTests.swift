import Foundation
@testable import StatusKit
import StreamKit
import TestSupport
import XCTest

/// Sending a 3MF project to the test Bambu printer: its storage is an implicit-FTPS server that,
/// like the printer's vsftpd, refuses a data connection that does not resume the control
/// connection's TLS session; its MQTT side starts a stored file on `project_file`. What arrives is
/// compared with what was sent, the print is seen in the printer's report, and a refusal is said
/// before anything is sent.
final class BambuUploadTests: XCTestCase {
    private let code = "27182818"

    private func printer(_ arguments: [String] = []) throws -> (server: TestServer, endpoint: StatusEndpoint) {
        let server = try TestServer(script: "bambu_mqtt_printer.py", arguments: ["--code", code, "--partial"] + arguments)
        addTeardownBlock { server.stop() }
        let ready = try XCTUnwrap(server.waitFor("ready"))
        let serial = try XCTUnwrap(ready.string("serial"))
        let filePort = try XCTUnwrap(ready.int("ftps_port"))
        return (server, .bambu(host: "127.0.0.1", port: server.port, accessCode: code, serial: serial, filePort: filePort))
    }

    /// A file of `size` random bytes called `name`, and its SHA-256.
    private func project(_ name: String, size: Int) throws -> (file: PrintFile, sha256: String) {
        let directory = try makeTemporaryDirectory()
        let url = directory.appendingPathComponent(name)
        let random = try XCTUnwrap(FileHandle(forReadingAtPath: "/dev/urandom"))
        try random.readData(ofLength: size).write(to: url)
        try random.close()
        return (try PrintFile(url: url), try sha256(of: url))
    }

    private func sha256(of url: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [url.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return String(text.prefix(64))
    }

    private func send(_ file: PrintFile, to endpoint: StatusEndpoint, stop: StopSignal = StopSignal(),
                      progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }) -> UploadOutcome {
        endpoint.family.send(file, to: endpoint, plate: 1, stop: stop, progress: progress)
    }

    private func projectFileRequests(_ server: TestServer) -> [[String: Any]] {
        server.events(named: "request").compactMap { ($0.fields["payload"] as? [String: Any])?["print"] as? [String: Any] }
            .filter { $0["command"] as? String == "project_file" }
    }

    func testAProjectArrivesByteForByteAndProjectFileStartsItsPrint() throws {
        let (server, endpoint) = try printer()
        let (file, hash) = try project("benchy.gcode.3mf", size: 3_000_000 + 17)
        let seen = ProgressLog<UploadProgress>()
        XCTAssertEqual(send(file, to: endpoint, progress: seen.add), .uploaded(remoteName: "benchy.gcode.3mf"))

        let stored = try XCTUnwrap(server.waitFor("ftp-stored"))
        XCTAssertEqual(stored.string("name"), "benchy.gcode.3mf")
        XCTAssertEqual(stored.int("bytes"), Int(file.size))
        XCTAssertEqual(stored.string("sha256"), hash, "the printer holds exactly the file's bytes")
        XCTAssertTrue(server.events(named: "ftp-data-refused").isEmpty, "the data connection resumed the TLS session")
        let sent = seen.all.map(\.sent)
        XCTAssertEqual(sent.last, file.size)
        XCTAssertEqual(sent, sent.sorted(), "progress only grows")
        XCTAssertTrue(seen.all.allSatisfy { $0.total == file.size })

        let recorder = StatusRecorder(endpoint)
        recorder.awaitStatus(15, "idle") { $0.state == .idle }
        XCTAssertEqual(recorder.send(.printFile("benchy.gcode.3mf", plate: 1)), .done)
        recorder.awaitStatus(10, "printing the sent project") { $0.state == .printing && $0.job == "benchy" }

        let request = try XCTUnwrap(projectFileRequests(server).first)
        XCTAssertEqual(request["param"] as? String, "Metadata/plate_1.gcode")
        XCTAssertEqual(request["url"] as? String, "ftp://benchy.gcode.3mf")
        XCTAssertEqual(request["subtask_name"] as? String, "benchy")
        XCTAssertEqual(request["use_ams"] as? Bool, false)
        XCTAssertEqual(request["bed_leveling"] as? Bool, true)
        XCTAssertNotNil(request["sequence_id"])
    }

    func testALargeProjectGoesFromDiskInBoundedMemory() throws {
        let (server, endpoint) = try printer()
        let url = try makeTemporaryDirectory().appendingPathComponent("large.3mf")
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data("PK".utf8)))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 128 << 20)  // 128 MiB, most of it a hole of zeros
        try handle.close()
        let file = try PrintFile(url: url)
        let before = try XCTUnwrap(ProcessMemory.residentBytes)
        let peak = PeakMemory()
        XCTAssertEqual(send(file, to: endpoint) { _ in peak.sample() }, .uploaded(remoteName: "large.3mf"))
        XCTAssertEqual(server.waitFor("ftp-stored", timeout: 30)?.int("bytes"), 128 << 20)
        XCTAssertLessThan(peak.bytes - before, 24 << 20, "the file never sits in memory whole")
    }

    func testAFileThePrinterDoesNotHoldIsRefusedInThePrintersWords() throws {
        let (server, endpoint) = try printer()
        let recorder = StatusRecorder(endpoint)
        recorder.awaitStatus(15, "idle") { $0.state == .idle }
        guard case .refused(let reason?) = recorder.send(.printFile("never-sent.3mf", plate: 2)) else {
            return XCTFail("not refused with a reason")
        }
        XCTAssertTrue(reason.contains("not found"), reason)
        XCTAssertEqual(projectFileRequests(server).first?["param"] as? String, "Metadata/plate_2.gcode")
    }

    func testAWrongAccessCodeIsToldInTheUsersWordsAndNothingIsStored() throws {
        let (server, endpoint) = try printer()
        let (file, _) = try project("cube.3mf", size: 10_000)
        let wrong = StatusEndpoint.bambu(host: endpoint.host, port: endpoint.port, accessCode: "00000000",
                                         serial: endpoint.serial, filePort: (endpoint.family as? BambuStatusFamily)?.filePort ?? 0)
        let outcome = send(file, to: wrong)
        XCTAssertEqual(outcome, .failed(.authRejected))
        XCTAssertEqual(StatusFailure.authRejected.userMessage,
                       "Status: the access code or API key was rejected — check it in the printer's settings.")

        // The storage itself refuses the code too (530), as the same failure.
        let filePort = try XCTUnwrap((endpoint.family as? BambuStatusFamily)?.filePort)
        XCTAssertThrowsError(try FTPSClient(host: "127.0.0.1", port: filePort, user: "bblp", password: "00000000", stop: StopSignal())) {
            XCTAssertEqual($0 as? StatusFailure, .authRejected)
        }
        XCTAssertEqual(server.waitFor("ftp-login")?.fields["ok"] as? Bool, false)
        XCTAssertTrue(server.events(named: "ftp-stored").isEmpty)
    }

    func testTheFakeStorageRefusesADataConnectionThatDoesNotResumeTheSession() throws {
        let (server, endpoint) = try printer()
        let filePort = try XCTUnwrap((endpoint.family as? BambuStatusFamily)?.filePort)
        // Python's ftplib over implicit TLS, its data connection a fresh handshake (no session).
        let script = """
        import ftplib, socket, ssl, sys
        context = ssl.create_default_context(); context.check_hostname = False; context.verify_mode = ssl.CERT_NONE
        class Implicit(ftplib.FTP_TLS):
            def connect(self, host, port):
                self.host, self.port = host, port
                self.sock = context.wrap_socket(socket.create_connection((host, port), 10))
                self.af = self.sock.family
                self.file = self.sock.makefile("r", encoding=self.encoding)
                return self.getresp()
        ftp = Implicit(context=context)
        ftp.connect("127.0.0.1", int(sys.argv[1]))
        ftp.login("bblp", sys.argv[2]); ftp.prot_p()
        try:
            ftp.storbinary("STOR fresh.3mf", open(sys.argv[3], "rb"))
            print("stored")
        except ftplib.all_errors as error:
            print("refused", error)
        """
        let (file, _) = try project("fresh.3mf", size: 4096)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.systemPython)
        process.arguments = ["-c", script, String(filePort), code, file.url.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertTrue(said.hasPrefix("refused"), said)
        XCTAssertEqual(server.waitFor("ftp-data-refused")?.string("reason"), "no session reuse")
        XCTAssertEqual((server.perform(["cmd": "files"])?.fields["files"] as? [String: Any])?.isEmpty, true, "nothing was stored")
    }

    func testACancelledUploadDeletesItsPartAndStartsNothing() throws {
        let (server, endpoint) = try printer()
        let (file, _) = try project("big.3mf", size: 8 * FTPSClient.chunkSize)
        let stop = StopSignal()
        let seen = ProgressLog<UploadProgress>()
        let outcome = send(file, to: endpoint, stop: stop) { progress in
            seen.add(progress)
            stop.stop()  // cancelled once the first chunk went
        }
        XCTAssertEqual(outcome, .cancelled)
        XCTAssertLessThan(seen.all.last?.sent ?? 0, file.size, "cancelled before the end")
        let stored = try XCTUnwrap(server.waitFor("ftp-stored"))
        XCTAssertLessThan(stored.int("bytes") ?? .max, Int(file.size), "the printer had only a part")
        XCTAssertEqual(server.waitFor("ftp-deleted")?.string("name"), "big.3mf")
        XCTAssertEqual((server.perform(["cmd": "files"])?.fields["files"] as? [String: Any])?.isEmpty, true, "the part is gone")
        XCTAssertTrue(projectFileRequests(server).isEmpty, "no print was asked for")
    }

    func testACancelWhileThePrinterHoldsTheDataConnectionEndsAtOnceAndKeepsNothing() throws {
        let (server, endpoint) = try printer()
        XCTAssertNotNil(server.perform(["cmd": "slow_uploads", "seconds": 3]))
        let (file, _) = try project("early.3mf", size: 100_000)
        let stop = StopSignal()
        let stopped = Stamp()
        // Cancelled while the data connection's handshake waits for the printer.
        DispatchQueue.global().async {
            while server.events(named: "ftp-login").isEmpty { Thread.sleep(forTimeInterval: 0.02) }
            Thread.sleep(forTimeInterval: 0.5)
            stopped.mark()
            stop.stop()
        }
        XCTAssertEqual(send(file, to: endpoint, stop: stop), .cancelled)
        XCTAssertLessThan(Date().timeIntervalSince(try XCTUnwrap(stopped.date)), 1.5, "the wait ends with the cancel")
        Thread.sleep(forTimeInterval: 3)  // the printer takes the connection at last, and finds it closed
        XCTAssertTrue(server.events(named: "ftp-stored").isEmpty)
        XCTAssertEqual((server.perform(["cmd": "files"])?.fields["files"] as? [String: Any])?.isEmpty, true)
        XCTAssertTrue(projectFileRequests(server).isEmpty)
    }

    func testAnUploadThePrinterBreaksOffIsToldInItsWordsAndItsPartDeleted() throws {
        let (server, endpoint) = try printer()
        XCTAssertNotNil(server.perform(["cmd": "drop_uploads", "after": 3 * FTPSClient.chunkSize]))
        let (file, _) = try project("broken.3mf", size: 40 * FTPSClient.chunkSize)
        // The process lives on: writing to the reset connection is an error, not SIGPIPE.
        XCTAssertEqual(send(file, to: endpoint), .failed(.protocolError("the printer's FTP server refused: 426 Failure writing network stream.")))
        XCTAssertEqual(server.waitFor("ftp-deleted")?.string("name"), "broken.3mf")
        XCTAssertEqual((server.perform(["cmd": "files"])?.fields["files"] as? [String: Any])?.isEmpty, true, "the part is gone")
        XCTAssertTrue(projectFileRequests(server).isEmpty)
    }

    func testWritingToAConnectionThePrinterClosedIsAnErrorNotTheProcessesEnd() throws {
        let (_, endpoint) = try printer()
        let filePort = try XCTUnwrap((endpoint.family as? BambuStatusFamily)?.filePort)
        let stream = try TLSStream(host: "127.0.0.1", port: filePort, timeout: 5, stop: StopSignal())
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        let quit = Array("QUIT\r\n".utf8)
        try quit.withUnsafeBytes { try stream.write($0) }
        while ((try? stream.read(into: buffer)) ?? 0) > 0 {}  // 220, 221, then the server's close (without TLS's goodbye)
        // The first write is answered with a reset, the next is ECONNRESET, those after it EPIPE:
        // errors, and the process lives on (a SIGPIPE would end it).
        var failures = 0
        for _ in 0..<4 {
            do {
                try quit.withUnsafeBytes { try stream.write($0) }
            } catch {
                failures += 1
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTAssertGreaterThanOrEqual(failures, 2)
    }

    func testDeveloperModeOffIsRefusedBeforeAnythingIsSent() throws {
        let (server, endpoint) = try printer()
        // `fun` bit 0x20000000: the firmware wants signed commands (PROTOCOLS.md §9).
        XCTAssertNotNil(server.perform(["cmd": "set", "print": ["fun": "3EC1AFFF9CFF"]]))
        let (file, _) = try project("locked.3mf", size: 50_000)
        XCTAssertEqual(send(file, to: endpoint), .refused(CommandOutcome.developerModeHint))
        XCTAssertEqual(CommandOutcome.developerModeHint,
                       "Turn on Developer Mode (LAN Only) on the printer to control prints from Layerwatch")
        XCTAssertTrue(server.events(named: "ftp-connected").isEmpty, "not a byte went to the storage")
    }

    func testGCodeIsRefusedSayingWhy() throws {
        let (server, endpoint) = try printer()
        let directory = try makeTemporaryDirectory()
        let url = directory.appendingPathComponent("cube.gcode")
        try Data("G28\n".utf8).write(to: url)
        let why = "Bambu Lab printers print 3MF projects sliced for them, not G-code files"
        XCTAssertEqual(endpoint.family.refusal(of: .gcode), why)
        XCTAssertEqual(endpoint.family.refusal(of: .binaryGCode), why)
        XCTAssertNil(endpoint.family.refusal(of: .project3MF))
        XCTAssertEqual(send(try PrintFile(url: url), to: endpoint), .refused(why))
        XCTAssertTrue(server.events(named: "ftp-connected").isEmpty)
    }
}

/// The most resident memory seen while an upload ran, sampled from its thread.
final class PeakMemory: @unchecked Sendable {
    private let lock = NSLock()
    private var peak = 0

    func sample() {
        let now = ProcessMemory.residentBytes ?? 0
        lock.withLock { peak = max(peak, now) }
    }

    var bytes: Int { lock.withLock { peak } }
}

/// When something happened, set on one thread and read on another.
final class Stamp: @unchecked Sendable {
    private let lock = NSLock()
    private var when: Date?

    func mark() { lock.withLock { when = Date() } }

    var date: Date? { lock.withLock { when } }
}
