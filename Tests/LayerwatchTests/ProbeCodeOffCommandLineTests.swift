import Foundation
import TestSupport
import XCTest

/// `layerwatch probe` without the access code on its command line (where /proc/PID/cmdline shows
/// it to every local user): read from standard input, or a saved printer's.
final class ProbeCodeOffCommandLineTests: XCTestCase {
    func testTheCodeCanComeFromStandardInput() throws {
        let server = try TestServer(script: "rtsp_server.py",
                                    arguments: ["--tls", "--user", "bblp", "--password", "Zx81Qq09", "--width", "320", "--height", "240"])
        let run = try runProbe(["--code-from-stdin", "rtsps://127.0.0.1:\(server.port)/streaming/live/1", "--frames", "3"],
                               input: "Zx81Qq09\n")
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.output.contains("rtsps://bblp:***@127.0.0.1:\(server.port)/streaming/live/1"), run.output)
        XCTAssertFalse(run.output.contains("Zx81Qq09"), run.output)
    }

    func testASavedPrintersCodeIsUsed() throws {
        let server = try TestServer(script: "rtsp_server.py",
                                    arguments: ["--user", "admin", "--password", "S3cr3tPw", "--width", "320", "--height", "240"])
        let config = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(at: config.appendingPathComponent("layerwatch"), withIntermediateDirectories: true)
        try Data("""
        {"formatVersion": 1, "printers": [{"id": "6F9619FF-8B86-D011-B42D-00CF4FC964FF", "name": "Door cam", "kind": "generic",
          "url": "rtsp://admin:S3cr3tPw@127.0.0.1:\(server.port)/streaming/live/1"}]}
        """.utf8).write(to: config.appendingPathComponent("layerwatch/printers.json"))
        // No session bus: no keyring, so the code is the file's.
        let environment = ["XDG_CONFIG_HOME": config.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]
        let run = try runProbe(["--printer", "Door cam", "--frames", "3"], environment: environment)
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertFalse(run.output.contains("S3cr3tPw"), run.output)

        let unknown = try runProbe(["--printer", "Attic"], environment: environment)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.output.contains("no saved printer is called “Attic”; there are “Door cam”"), unknown.output)

        // A list the app can't read is reported, and left where it is for the app to deal with.
        let list = config.appendingPathComponent("layerwatch/printers.json")
        try Data("{ not json".utf8).write(to: list)
        let broken = try runProbe(["--printer", "Door cam"], environment: environment)
        XCTAssertEqual(broken.status, 2)
        XCTAssertTrue(broken.output.contains("could not read its printer list"), broken.output)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: list.deletingLastPathComponent().path), ["printers.json"],
                       "nothing was renamed")
    }

    /// `--camera` picks one of a saved printer's cameras by number or name; the first without it.
    func testCameraPicksOneOfASavedPrintersCameras() throws {
        let nozzle = try TestServer(script: "mjpeg_server.py"), bed = try TestServer(script: "mjpeg_server.py")
        let config = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(at: config.appendingPathComponent("layerwatch"), withIntermediateDirectories: true)
        try Data("""
        {"formatVersion": 3, "printers": [{"id": "6F9619FF-8B86-D011-B42D-00CF4FC964FF", "name": "Voron", "kind": "klipper",
          "host": "127.0.0.1", "cameras": [
            {"id": "7F9619FF-8B86-D011-B42D-00CF4FC964FF", "name": "Nozzle", "url": "http://127.0.0.1:\(nozzle.port)/?action=stream"},
            {"id": "8F9619FF-8B86-D011-B42D-00CF4FC964FF", "name": "Bed", "url": "http://127.0.0.1:\(bed.port)/?action=stream"}]}]}
        """.utf8).write(to: config.appendingPathComponent("layerwatch/printers.json"))
        let environment = ["XDG_CONFIG_HOME": config.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]
        for (arguments, server) in [([], nozzle), (["--camera", "2"], bed), (["--camera", "Nozzle"], nozzle)] {
            let run = try runProbe(["--printer", "Voron", "--frames", "2"] + arguments, environment: environment)
            XCTAssertEqual(run.status, 0, run.output)
            XCTAssertTrue(run.output.contains("127.0.0.1:\(server.port)"), "\(arguments): \(run.output)")
        }
        let missing = try runProbe(["--printer", "Voron", "--camera", "3"], environment: environment)
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.output.contains("“Voron” has no camera “3”; it has “Nozzle”, “Bed”"), missing.output)
        let alone = try runProbe(["--camera", "2", "http://127.0.0.1:\(bed.port)/?action=stream"], environment: environment)
        XCTAssertNotEqual(alone.status, 0)
        XCTAssertTrue(alone.output.contains("--camera needs --printer."), alone.output)
    }

    /// A saved camera-streamer camera is probed as the app plays it: WebRTC, then its MJPEG fallback
    /// (the password, which both share, masked).
    func testASavedCamerasMJPEGFallbackIsProbed() throws {
        let camera = try TestServer(script: "mjpeg_server.py")
        let config = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(at: config.appendingPathComponent("layerwatch"), withIntermediateDirectories: true)
        try Data("""
        {"formatVersion": 3, "printers": [{"id": "6F9619FF-8B86-D011-B42D-00CF4FC964FF", "name": "Voron", "kind": "klipper",
          "host": "127.0.0.1", "cameras": [{"id": "7F9619FF-8B86-D011-B42D-00CF4FC964FF", "name": "Nozzle",
            "url": "webrtc:http://maker:Cr0wsN3st@127.0.0.1:\(camera.port)/webcam/webrtc#format=camera-streamer", "mjpegFallback": "stream"}]}]}
        """.utf8).write(to: config.appendingPathComponent("layerwatch/printers.json"))
        let environment = ["XDG_CONFIG_HOME": config.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]
        let run = try runProbe(["--printer", "Voron", "--frames", "3"], environment: environment)
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.output.contains("MJPEG fallback http://maker:***@127.0.0.1:\(camera.port)/webcam/stream"), run.output)
        XCTAssertTrue(run.output.contains("MJPEG, as WebRTC failed: notFound"), run.output)
        XCTAssertTrue(run.output.contains("640×480"), run.output)
        XCTAssertFalse(run.output.contains("Cr0wsN3st"), run.output)
    }

    /// Runs `layerwatch probe` with `input` on its standard input (a pipe, not a terminal).
    private func runProbe(_ arguments: [String], input: String = "", environment: [String: String] = [:]) throws
        -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = CommandRun.productsDirectory.appendingPathComponent("layerwatch")
        process.arguments = ["probe"] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdin = Pipe(), output = Pipe()
        process.standardInput = stdin
        process.standardOutput = output
        process.standardError = output
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
