import Foundation
import TestSupport
import XCTest

/// Launching Layerwatch while it runs hands the camera URL to the running window and exits at once:
/// one instance, one window, the URL opened as a tab there.
final class SingleInstanceTests: XCTestCase {
    func testSecondLaunchOpensItsURLInTheRunningInstance() throws {
        let environment = ProcessInfo.processInfo.environment
        guard environment["DBUS_SESSION_BUS_ADDRESS"] != nil, environment["DISPLAY"] != nil else {
            throw XCTSkip("needs a session bus and a display: run under dbus-run-session and xvfb-run (make test)")
        }
        let server = try TestServer(script: "mjpeg_server.py")
        let config = try TestPaths.temporaryDirectory()
        let log = config.appendingPathComponent("first.log")
        XCTAssertTrue(FileManager.default.createFile(atPath: log.path, contents: nil))
        let childEnvironment = ["XDG_CONFIG_HOME": config.path, "G_MESSAGES_DEBUG": "Layerwatch", "GSK_RENDERER": "cairo"]

        let first = Process()
        first.executableURL = CommandRun.productsDirectory.appendingPathComponent("layerwatch")
        first.arguments = ["--demo"]  // no saved printer: the welcome page, and the demo asked for
        first.environment = environment.merging(childEnvironment) { $1 }
        // GLib writes debug messages to stdout, warnings to stderr: keep both.
        let logHandle = try FileHandle(forWritingTo: log)
        first.standardOutput = logHandle
        first.standardError = logHandle
        try first.run()
        defer {
            first.terminate()
            first.waitUntilExit()
        }
        let firstLog = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        XCTAssertTrue(waitUntil(timeout: 20) { firstLog().contains("live") }, "the first instance shows the demo: \(firstLog())")

        let url = "http://127.0.0.1:\(server.port)/?action=stream"
        let started = Date()
        let second = try CommandRun.product("layerwatch", [url], timeout: 20, environment: childEnvironment)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the second launch hands over and exits")
        XCTAssertNotNil(server.waitFor("request", timeout: 10), "the running instance opened the camera")
        XCTAssertTrue(waitUntil(timeout: 10) { firstLog().contains("passed on by another launch") }, firstLog())
        XCTAssertTrue(first.isRunning, "the first instance keeps running")
        XCTAssertEqual(server.events(named: "request").count, 1,
                       "only the running instance connects: the launch that hands over starts no connection of its own")

        // `layerwatch --farm` switches the running window to the farm view, which is remembered.
        let farm = try CommandRun.product("layerwatch", ["--farm"], timeout: 20, environment: childEnvironment)
        XCTAssertEqual(farm.status, 0, farm.stderr)
        let saved = config.appendingPathComponent("layerwatch/printers.json")
        func farmShown() -> Bool? {
            guard let data = try? Data(contentsOf: saved),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
            return (object["farm"] as? [String: Any])?["shown"] as? Bool
        }
        XCTAssertTrue(waitUntil(timeout: 10) { farmShown() == true }, "saved: \(String(describing: farmShown()))")
        XCTAssertEqual(server.events(named: "request").count, 1, "switching views opens no connection")
    }

    /// A file whose name looks like an option, given after `--`, opens as a camera: GOption reads the
    /// options before `run`'s `--`, so the file `--farm` is neither the farm view nor refused.
    func testAFileNamedLikeAnOptionOpensAsACamera() throws {
        let environment = ProcessInfo.processInfo.environment
        guard environment["DBUS_SESSION_BUS_ADDRESS"] != nil, environment["DISPLAY"] != nil else {
            throw XCTSkip("needs a session bus and a display: run under dbus-run-session and xvfb-run (make test)")
        }
        let directory = try TestPaths.temporaryDirectory()
        try FileManager.default.copyItem(at: TestPaths.repository.appendingPathComponent("data/demo-printer.mp4"),
                                         to: directory.appendingPathComponent("--farm"))
        let log = directory.appendingPathComponent("layerwatch.log")
        XCTAssertTrue(FileManager.default.createFile(atPath: log.path, contents: nil))
        let launch = Process()
        launch.executableURL = CommandRun.productsDirectory.appendingPathComponent("layerwatch")
        launch.arguments = ["--", "--farm"]
        launch.currentDirectoryURL = directory
        launch.environment = environment.merging(["XDG_CONFIG_HOME": directory.path, "G_MESSAGES_DEBUG": "Layerwatch", "GSK_RENDERER": "cairo"]) { $1 }
        let logHandle = try FileHandle(forWritingTo: log)
        launch.standardOutput = logHandle
        launch.standardError = logHandle
        try launch.run()
        let output = { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        XCTAssertTrue(waitUntil(timeout: 20) { output().contains("/--farm: live") }, "the file plays: \(output())")
        XCTAssertTrue(waitUntil(timeout: 10) { output().contains("window mapped") }, output())
        launch.terminate()  // SIGTERM quits as Ctrl+Q does, saving what changed (the farm view shown, had it been)
        launch.waitUntilExit()
        let saved = (try? Data(contentsOf: directory.appendingPathComponent("layerwatch/printers.json")))
            .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
        XCTAssertNotEqual((saved?["farm"] as? [String: Any])?["shown"] as? Bool, true,
                          "the window opened on the file's tab, not the farm: \(String(describing: saved))")
    }
}
