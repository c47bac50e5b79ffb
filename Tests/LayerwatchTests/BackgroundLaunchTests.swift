import Foundation
import TestSupport
import XCTest

/// `layerwatch --background`, as the login starts it, run as a process: no window, the printer's
/// status polled; launching `layerwatch` again shows the window of that same process; Ctrl+Q ends
/// it. With nothing to watch, `--background` ends at once.
final class BackgroundLaunchTests: XCTestCase {
    func testBackgroundStartWatchesWithNoWindowAndALaunchShowsItsWindow() throws {
        let environment = ProcessInfo.processInfo.environment
        guard environment["DBUS_SESSION_BUS_ADDRESS"] != nil, environment["DISPLAY"] != nil else {
            throw XCTSkip("needs a session bus and a display: run under dbus-run-session and xvfb-run (make test)")
        }
        let moonraker = try TestServer(script: "moonraker_server.py")
        let camera = try TestServer(script: "mjpeg_server.py")
        defer {
            moonraker.stop()
            camera.stop()
        }
        let config = try TestPaths.temporaryDirectory()
        try FileManager.default.createDirectory(at: config.appendingPathComponent("layerwatch"), withIntermediateDirectories: true)
        try Data("""
        {"formatVersion": 3, "printers": [{"id": "6F9619FF-8B86-D011-B42D-00CF4FC964FF", "name": "Voron", "kind": "klipper",
          "host": "127.0.0.1", "apiPort": \(moonraker.port), "notifies": false, "cameras": [
            {"id": "7F9619FF-8B86-D011-B42D-00CF4FC964FF", "url": "http://127.0.0.1:\(camera.port)/?action=stream"}]}]}
        """.utf8).write(to: config.appendingPathComponent("layerwatch/printers.json"))
        let childEnvironment = ["XDG_CONFIG_HOME": config.path, "XDG_STATE_HOME": config.appendingPathComponent("state").path,
                                "G_MESSAGES_DEBUG": "Layerwatch", "GSK_RENDERER": "cairo"]

        let first = Process()
        first.executableURL = CommandRun.productsDirectory.appendingPathComponent("layerwatch")
        first.arguments = ["--background"]
        first.environment = environment.merging(childEnvironment) { $1 }
        let log = config.appendingPathComponent("first.log")
        XCTAssertTrue(FileManager.default.createFile(atPath: log.path, contents: nil))
        let logHandle = try FileHandle(forWritingTo: log)
        first.standardOutput = logHandle
        first.standardError = logHandle
        try first.run()
        defer {
            if first.isRunning { first.terminate() }
            first.waitUntilExit()
        }
        XCTAssertTrue(waitUntil(timeout: 20) { moonraker.events(named: "request").count >= 3 }, "the status is polled")
        XCTAssertTrue(Self.windows(of: first.processIdentifier).isEmpty, "no window")
        XCTAssertTrue(camera.events(named: "request").isEmpty, "no camera is opened for nobody")
        XCTAssertEqual(Self.openGLLibraries(of: first.processIdentifier), [], "drawing with cairo, no OpenGL driver is loaded")

        // Launching again (the desktop menu, `layerwatch`) shows the window of the running process.
        let second = try CommandRun.product("layerwatch", [], timeout: 20, environment: childEnvironment)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(waitUntil(timeout: 15) { !Self.windows(of: first.processIdentifier).isEmpty }, "the window is back")
        XCTAssertTrue(first.isRunning)
        XCTAssertNotNil(camera.waitFor("request", timeout: 10), "its tab shows the camera")
        XCTAssertEqual(Self.openGLLibraries(of: first.processIdentifier), [], "nor once its window is shown")

        // Ctrl+Q ends it.
        let window = try XCTUnwrap(Self.windows(of: first.processIdentifier).first)
        XCTAssertEqual(Self.xdotool(["windowfocus", "--sync", window, "key", "--clearmodifiers", "ctrl+q"]).status, 0)
        XCTAssertTrue(waitUntil(timeout: 15) { !first.isRunning }, "Ctrl+Q quits: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        XCTAssertEqual(first.terminationStatus, 0)
    }

    func testBackgroundStartWithNothingToWatchEnds() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("needs a session bus: run under dbus-run-session (make test)")
        }
        let config = try TestPaths.temporaryDirectory()
        let run = try CommandRun.product("layerwatch", ["--background"], timeout: 20,
                                         environment: ["XDG_CONFIG_HOME": config.path, "XDG_STATE_HOME": config.path, "GSK_RENDERER": "cairo"])
        XCTAssertEqual(run.status, 0, run.stderr)
    }

    /// The OpenGL drivers (Mesa's `*_dri.so`, LLVM) process `pid` has mapped.
    private static func openGLLibraries(of pid: Int32) -> Set<String> {
        let maps = (try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)) ?? ""
        return Set(maps.split(separator: "\n").compactMap { line in
            line.split(separator: "/").last.map(String.init).flatMap { $0.hasSuffix("_dri.so") || $0.hasPrefix("libLLVM") ? $0 : nil }
        })
    }

    /// The visible top-level windows of process `pid` (xdotool's search; a window is listed once mapped).
    private static func windows(of pid: Int32) -> [String] {
        xdotool(["search", "--onlyvisible", "--pid", "\(pid)", "--name", "Layerwatch"]).output
            .split(separator: "\n").map(String.init)
    }

    private static func xdotool(_ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return (-1, "") }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
