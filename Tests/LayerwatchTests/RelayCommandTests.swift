import Foundation
import TestSupport
import XCTest

/// `layerwatch relay`, run as go2rtc's `exec:` source runs it, against the loopback P1/A1 and MJPEG
/// cameras: what it writes decodes with FFmpeg at the camera's size, it is the camera's own JPEGs
/// on one connection, and it ends with status 0 as soon as its reader goes away.
final class RelayCommandTests: XCTestCase {
    private let code = "Zx81Qq09"

    func testAP1CameraPipedIntoFFmpegDecodesOnOneConnectionAndTheRelayEndsWithIt() throws {
        let server = try TestServer(script: "bambu_jpeg_server.py",
                                    arguments: ["--password", code, "--width", "640", "--height", "360", "--fps", "10"])
        let relay = try RelayProcess(["bambu-jpeg://127.0.0.1:\(server.port)?code=\(code)"])
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = ["-hide_banner", "-f", "mjpeg", "-i", "pipe:0", "-frames:v", "8", "-pix_fmt", "gray", "-f", "rawvideo", "pipe:1"]
        ffmpeg.standardInput = relay.output
        let decoded = Pipe(), said = Pipe()
        ffmpeg.standardOutput = decoded
        ffmpeg.standardError = said
        try ffmpeg.run()
        relay.closeOutput()  // ffmpeg holds the read end now
        let pixels = decoded.fileHandleForReading.readDataToEndOfFile()
        let log = String(decoding: said.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ffmpeg.waitUntilExit()
        let readerGone = Date()

        XCTAssertEqual(ffmpeg.terminationStatus, 0, log)
        XCTAssertTrue(log.contains("640x360"), log)
        XCTAssertEqual(pixels.count, 8 * 640 * 360, "eight decoded 640×360 pictures")
        let status = try XCTUnwrap(relay.exitStatus(within: 3), "the relay went on after its reader left")
        XCTAssertEqual(status, 0, relay.errors)
        XCTAssertLessThan(Date().timeIntervalSince(readerGone), 2)
        XCTAssertEqual(server.events(named: "client").count, 1, "one connection for every frame")
        XCTAssertFalse(relay.errors.contains(code), relay.errors)
    }

    func testAnMJPEGCamerasJPEGsArePassedThroughUnchangedOnOneConnection() throws {
        let server = try TestServer(script: "mjpeg_server.py", arguments: ["--width", "640", "--height", "360", "--fps", "10"])
        let relay = try RelayProcess(["http://127.0.0.1:\(server.port)/webcam/?action=stream"])
        let bytes = relay.read { Self.pictures(in: $0).count > 5 }
        relay.closeOutput()
        let readerGone = Date()

        let status = try XCTUnwrap(relay.exitStatus(within: 3), "the relay went on after its reader left")
        XCTAssertEqual(status, 0, relay.errors)
        XCTAssertLessThan(Date().timeIntervalSince(readerGone), 2)
        let pictures = Array(Self.pictures(in: bytes).prefix(5))
        XCTAssertEqual(pictures.count, 5, relay.errors)
        XCTAssertEqual(Set(pictures).count, 1, "the camera's one picture, byte for byte, every time")
        XCTAssertEqual(try Self.decodedSizes(of: Data(pictures.joined())), Array(repeating: "640x360", count: 5))
        XCTAssertEqual(server.events(named: "request").count, 1, "one connection for every frame")
    }

    func testTheRelayEndsAtOnceWhenItsReaderLeavesBetweenTwoFramesOfASlowPrinter() throws {
        let server = try TestServer(script: "bambu_jpeg_server.py", arguments: ["--password", code, "--fps", "0.4"])
        let relay = try RelayProcess(["bambu-jpeg://127.0.0.1:\(server.port)?code=\(code)"])
        XCTAssertEqual(Self.pictures(in: relay.read { !Self.pictures(in: $0).isEmpty }).count, 1, relay.errors)
        relay.closeOutput()
        // The next frame is 2.5 s away: the relay must not wait for it to find out.
        let status = try XCTUnwrap(relay.exitStatus(within: 1.5), "the relay waited for a write to fail")
        XCTAssertEqual(status, 0, relay.errors)
    }

    /// By its id, as "Export for go2rtc…" names a printer whose name another one has: the id means
    /// that printer even when an earlier one is called by it (the others are RTSP cameras, which the
    /// relay refuses at once).
    func testASavedP1PrintersCameraIsRelayedFromPort6000WithTheSavedCode() throws {
        let host = "127.\(Int.random(in: 1...254)).\(Int.random(in: 0...255)).\(Int.random(in: 1...254))"
        let server = try TestServer(script: "bambu_jpeg_server.py",
                                    arguments: ["--bind", host, "--port", "6000", "--password", code, "--width", "640", "--height", "360", "--fps", "10"])
        let config = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(at: config.appendingPathComponent("layerwatch"), withIntermediateDirectories: true)
        let id = "6F9619FF-8B86-D011-B42D-00CF4FC964FF"
        try Data("""
        {"formatVersion": 1, "printers": [
          {"id": "1B4E28BA-2FA1-11D2-883F-0016D3CCA427", "name": "\(id)", "kind": "generic", "url": "rtsp://127.0.0.1:9/decoy"},
          {"id": "0E984725-C51C-4BF4-9960-E1C80E27ABA0", "name": "P1S workshop", "kind": "generic", "url": "rtsp://127.0.0.1:9/decoy"},
          {"id": "\(id)", "name": "P1S workshop", "kind": "bambuJPEG", "host": "\(host)", "accessCode": "\(code)"}]}
        """.utf8).write(to: config.appendingPathComponent("layerwatch/printers.json"))
        // No session bus: no keyring, so the code is the file's.
        let relay = try RelayProcess(["--printer", id],
                                     environment: ["XDG_CONFIG_HOME": config.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"])
        let bytes = relay.read { Self.pictures(in: $0).count > 3 }
        relay.closeOutput()
        XCTAssertEqual(try XCTUnwrap(relay.exitStatus(within: 3)), 0, relay.errors)
        XCTAssertEqual(try Self.decodedSizes(of: Data(Self.pictures(in: bytes).prefix(3).joined())),
                       Array(repeating: "640x360", count: 3))
        XCTAssertEqual(server.events(named: "client").count, 1)
    }

    func testAWrongAccessCodeEndsWithStatus3AndNeverShowsTheCode() throws {
        let server = try TestServer(script: "bambu_jpeg_server.py", arguments: ["--password", code])
        let run = try CommandRun.product("layerwatch", ["relay", "bambu-jpeg://127.0.0.1:\(server.port)?code=Wr0ngC0d"], timeout: 20)
        XCTAssertEqual(run.status, 3, run.stderr)
        XCTAssertTrue(run.stderr.contains("Access code rejected"), run.stderr)
        XCTAssertFalse(run.stderr.contains("Wr0ngC0d"), run.stderr)
        XCTAssertTrue(run.stdout.isEmpty)
        XCTAssertEqual(server.events(named: "client").count, 1, "a rejected code is not tried again")
    }

    func testAnRTSPCameraIsRefusedWithStatus2() throws {
        let run = try CommandRun.product("layerwatch", ["relay", "rtsps://bblp:S3cr3tPw@127.0.0.1:322/streaming/live/1"])
        XCTAssertEqual(run.status, 2, run.stderr)
        XCTAssertTrue(run.stderr.contains("for an RTSP camera give go2rtc its URL directly"), run.stderr)
        XCTAssertFalse(run.stderr.contains("S3cr3tPw"), run.stderr)
    }

    /// The whole JPEGs (FF D8 … FF D9) in `bytes`, one after another as the relay writes them.
    private static func pictures(in bytes: Data) -> [Data] {
        let data = [UInt8](bytes)
        var pictures: [Data] = [], start = 0
        var index = 2
        while index + 1 < data.count {
            if data[index] == 0xFF && data[index + 1] == 0xD9 && (index + 2 == data.count || index + 3 < data.count && data[index + 2] == 0xFF && data[index + 3] == 0xD8) {
                pictures.append(Data(data[start..<(index + 2)]))
                start = index + 2
                index = start + 2
            } else {
                index += 1
            }
        }
        return pictures
    }

    /// The size of every picture FFmpeg decodes from `mjpeg`, as "WxH".
    private static func decodedSizes(of mjpeg: Data) throws -> [String] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString).mjpeg")
        try mjpeg.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        probe.arguments = ["-v", "error", "-f", "mjpeg", "-show_entries", "frame=width,height", "-of", "csv=p=0:s=x", file.path]
        let output = Pipe()
        probe.standardOutput = output
        try probe.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        probe.waitUntilExit()
        XCTAssertEqual(probe.terminationStatus, 0)
        return text.split(separator: "\n").map(String.init)
    }
}

/// A running `layerwatch relay`, its standard output on a pipe the test reads or hands on.
private final class RelayProcess {
    private let process = Process()
    private let pipe = Pipe()
    private let errorFile: URL

    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("relay-\(UUID().uuidString).err")
        try Data().write(to: errorFile)
        process.executableURL = CommandRun.productsDirectory.appendingPathComponent("layerwatch")
        process.arguments = ["relay"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = pipe
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? pipe.fileHandleForWriting.close()
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: errorFile)
    }

    /// The read end, for another process's standard input.
    var output: FileHandle { pipe.fileHandleForReading }

    /// What the relay wrote on standard error so far.
    var errors: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    /// Reads until `enough` holds for what came (or 15 s pass, or the relay ends).
    func read(until enough: (Data) -> Bool) -> Data {
        var bytes = Data()
        let end = Date().addingTimeInterval(15)
        while !enough(bytes) && Date() < end {
            let chunk = output.availableData
            if chunk.isEmpty { break }
            bytes += chunk
        }
        return bytes
    }

    /// Closes this process's read end: with no other reader, the relay's reader is gone.
    func closeOutput() {
        try? output.close()
    }

    /// The exit status once the relay ended, or nil if it still runs after `seconds`.
    func exitStatus(within seconds: TimeInterval) -> Int32? {
        let end = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < end { usleep(20_000) }
        return process.isRunning ? nil : process.terminationStatus
    }
}
