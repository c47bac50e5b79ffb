import Foundation
import StatusKit
import StreamKit
import TestSupport
import XCTest

/// The job's thumbnail of a Klipper or OctoPrint printer, what a printer watched without a camera
/// shows: asked for once per job, after the status (Moonraker's file metadata, its largest
/// thumbnail beside the file; OctoPrint's PrusaSlicer Thumbnails plugin), from the real fakes
/// (Tests/Servers/moonraker_server.py, octoprint_server.py); and the picture size its header
/// declares, which decides whether the app decodes it.
final class JobThumbnailTests: XCTestCase {
    private func server(_ script: String, _ arguments: [String] = []) throws -> TestServer {
        let server = try TestServer(script: script, arguments: arguments)
        addTeardownBlock { server.stop() }
        return server
    }

    func testMoonrakerGivesTheLargestThumbnailOncePerJob() throws {
        let moonraker = try server("moonraker_server.py", ["--api-key", "MOONKEY42"])
        moonraker.send(["cmd": "thumbnail", "filename": "parts/benchy 2.gcode", "width": 300, "height": 200])
        XCTAssertNotNil(moonraker.waitFor("done") { $0.string("cmd") == "thumbnail" })
        let recorder = StatusRecorder(.moonraker(host: "127.0.0.1", port: moonraker.port, apiKey: "MOONKEY42"))
        recorder.awaitStatus(10, "standby") { $0.state == .idle }
        moonraker.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "parts/benchy 2.gcode"]]])
        let printing = recorder.awaitStatus(10, "the job's thumbnail") { $0.thumbnail != nil }
        XCTAssertEqual(printing?.thumbnail?.job, "parts/benchy 2.gcode")
        XCTAssertEqual(printing?.thumbnail?.pictureSize?.width, 300, "the largest of the two listed")
        XCTAssertEqual(printing?.thumbnail?.pictureSize?.height, 200)
        let paths = { moonraker.events(named: "request").compactMap { $0.string("path") } }
        XCTAssertEqual(paths().filter { $0.hasPrefix("/server/files/gcodes/") }, ["/server/files/gcodes/parts/.thumbs/benchy%202-300x200.png"],
                       "beside the file, in its folder")
        Thread.sleep(forTimeInterval: 4.5)
        XCTAssertEqual(paths().filter { $0.hasPrefix("/server/files/metadata") }.count, 1, "asked once per job, not at every poll")
        XCTAssertEqual(recorder.all.last?.status?.thumbnail, printing?.thumbnail, "kept while the job lasts")

        moonraker.send(["cmd": "set", "status": ["print_stats": ["filename": "plain.gcode"]]])
        let other = recorder.awaitStatus(10, "the next job") { $0.job == "plain.gcode" }
        XCTAssertNil(other?.thumbnail, "a job without one has none, not the last job's")
        Thread.sleep(forTimeInterval: 2.5)
        XCTAssertEqual(paths().filter { $0.hasPrefix("/server/files/metadata") }.count, 2, "a 404 is not asked again")
        XCTAssertEqual(recorder.all.filter { $0.connection == .connecting }.count, 1, "a missing thumbnail is no outage")
    }

    func testOctoPrintGivesThePluginsThumbnail() throws {
        let octoprint = try server("octoprint_server.py", ["--api-key", "OCTOKEY123456"])
        octoprint.send(["cmd": "thumbnail", "path": "folder/clip.gcode", "width": 220, "height": 124])
        XCTAssertNotNil(octoprint.waitFor("done") { $0.string("cmd") == "thumbnail" })
        let recorder = StatusRecorder(.octoprint(host: "127.0.0.1", port: octoprint.port, apiKey: "OCTOKEY123456"))
        recorder.awaitStatus(10, "operational") { $0.state == .idle }
        octoprint.send(["cmd": "set", "state": "Printing", "job": ["file": ["name": "clip.gcode", "display": "clip.gcode",
                                                                            "path": "folder/clip.gcode", "origin": "local"]]])
        let printing = recorder.awaitStatus(10, "the job's thumbnail") { $0.thumbnail != nil }
        XCTAssertEqual(printing?.thumbnail?.job, "clip.gcode")
        XCTAssertEqual(printing?.thumbnail?.pictureSize?.width, 220)
        XCTAssertEqual(printing?.thumbnail?.pictureSize?.height, 124)
    }

    /// A thumbnail address on another host or port is not fetched: the API key goes to the
    /// printer's API only.
    func testAThumbnailElsewhereIsNotFetched() throws {
        let octoprint = try server("octoprint_server.py", ["--api-key", "OCTOKEY123456"])
        let elsewhere = try server("octoprint_server.py", ["--api-key", "OCTOKEY123456"])
        elsewhere.send(["cmd": "thumbnail", "path": "clip.gcode", "width": 64, "height": 64])
        octoprint.send(["cmd": "thumbnail", "path": "clip.gcode", "width": 64, "height": 64,
                        "address": "http://127.0.0.1:\(elsewhere.port)/plugin/prusaslicerthumbnails/thumbnail/clip.png"])
        XCTAssertNotNil(octoprint.waitFor("done") { $0.string("cmd") == "thumbnail" })
        let recorder = StatusRecorder(.octoprint(host: "127.0.0.1", port: octoprint.port, apiKey: "OCTOKEY123456"))
        octoprint.send(["cmd": "set", "state": "Printing", "job": ["file": ["name": "clip.gcode", "display": "clip.gcode",
                                                                            "path": "clip.gcode", "origin": "local"]]])
        recorder.awaitStatus(10, "printing") { $0.state == .printing }
        XCTAssertNotNil(octoprint.waitFor("request") { $0.string("path") == "/api/files/local/clip.gcode" }, "the entry was asked for")
        Thread.sleep(forTimeInterval: 2.5)
        XCTAssertEqual(elsewhere.events(named: "request").count, 0, "nothing went to the other address")
        XCTAssertNil(recorder.all.last?.status?.thumbnail)
    }

    func testTheDeclaredSizeDecidesWhatIsDecoded() {
        func png(_ width: UInt32, _ height: UInt32) -> Data {
            var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            for side in [width, height] { bytes += withUnsafeBytes(of: side.bigEndian, Array.init) }
            return Data(bytes + [8, 2, 0, 0, 0])
        }
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x04, 0x4A, 0x46, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x78, 0x00, 0xA0, 0x03, 1, 2, 3])
        XCTAssertEqual(JobThumbnail(job: "a", image: png(300, 200)).pictureSize?.width, 300)
        XCTAssertEqual(JobThumbnail(job: "a", image: png(300, 200)).pictureSize?.height, 200)
        XCTAssertEqual(JobThumbnail(job: "a", image: jpeg).pictureSize?.width, 160)
        XCTAssertEqual(JobThumbnail(job: "a", image: jpeg).pictureSize?.height, 120)
        XCTAssertNil(JobThumbnail(job: "a", image: png(30_000, 30_000)).pictureSize, "a bomb's claim is not decoded")
        XCTAssertNil(JobThumbnail(job: "a", image: png(0, 10)).pictureSize)
        XCTAssertNil(JobThumbnail(job: "a", image: Data("<html>not found</html>".utf8)).pictureSize)
        XCTAssertNil(JobThumbnail(job: "a", image: Data([0xFF, 0xD8, 0xFF])).pictureSize, "a cut JPEG")
    }
}
