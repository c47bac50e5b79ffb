import Foundation
import TestSupport
import XCTest

/// `layerwatch --demo` under Wayland as a user's desktop would run it: weston 10 headless (pixman,
/// its desktop shell) on a private socket and runtime directory, GDK_BACKEND=wayland, no X display.
/// What is on the screen is read back from weston's screenshooter: the window mapped at its size
/// (960×680, the saved default) with the demo clip's picture in it (its print bed, background and
/// green part have known colours, data/make-demo-clip.sh); SIGTERM then ends the app as Quit does.
final class WaylandTests: XCTestCase {
    /// The backdrop weston's shell paints: magenta, which no pixel of the window has, and whose
    /// blend with the window's shadow (black at some alpha) keeps green 0 and red = blue.
    private static let backdrop = "0xffff00ff"
    private static let output = (width: 1280, height: 800)

    func testDemoShowsItsPictureUnderWestonAndEndsOnSIGTERM() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/weston"),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/weston-screenshooter") else {
            throw XCTSkip("weston is not installed (scripts/install-deps.sh test installs it)")
        }
        let app = CommandRun.productsDirectory.appendingPathComponent("layerwatch")
        guard FileManager.default.isExecutableFile(atPath: app.path) else {
            throw CommandRunError.notBuilt(app.path)
        }
        let work = try makeTemporaryDirectory()
        let runtime = work.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let socket = "lw-\(getpid())"  // short: the socket's path has 108 bytes at most
        let ini = work.appendingPathComponent("weston.ini")
        try Data("""
        [core]
        idle-time=0
        [shell]
        background-color=\(Self.backdrop)
        panel-position=none
        locking=false
        animation=none
        close-animation=none
        startup-animation=none
        focus-animation=none
        """.utf8).write(to: ini)

        // Neither weston nor the app may reach the X display or the test's session bus (a running
        // Layerwatch there would be handed the launch): Wayland alone, a bus that does not answer.
        var base = ProcessInfo.processInfo.environment
        base["DISPLAY"] = nil
        base["XDG_RUNTIME_DIR"] = runtime.path
        base["WAYLAND_DISPLAY"] = socket
        base["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(work.appendingPathComponent("no-bus").path)"

        let weston = Process()
        weston.executableURL = URL(fileURLWithPath: "/usr/bin/weston")
        // --debug offers the screenshooter protocol to every client, weston-screenshooter included.
        weston.arguments = ["--backend=headless-backend.so", "--use-pixman", "--width=\(Self.output.width)",
                            "--height=\(Self.output.height)", "--socket=\(socket)", "--config=\(ini.path)", "--debug", "--idle-time=0"]
        weston.environment = base
        let westonLog = work.appendingPathComponent("weston.log")
        try weston.redirectOutput(to: westonLog)
        try weston.run()
        defer {
            if weston.isRunning { weston.terminate() }
            weston.waitUntilExit()
        }
        XCTAssertTrue(waitUntil(timeout: 15) { FileManager.default.fileExists(atPath: runtime.appendingPathComponent(socket).path) },
                      "weston listens: \(Self.text(of: westonLog))")

        let config = work.appendingPathComponent("config"), state = work.appendingPathComponent("state")
        var environment = base
        environment["GDK_BACKEND"] = "wayland"
        environment["GSK_RENDERER"] = "cairo"
        environment["NO_AT_BRIDGE"] = "1"
        environment["XDG_CONFIG_HOME"] = config.path
        environment["XDG_STATE_HOME"] = state.path
        let layerwatch = Process()
        layerwatch.executableURL = app
        layerwatch.arguments = ["--demo"]
        layerwatch.environment = environment
        let appLog = work.appendingPathComponent("layerwatch.log")
        try layerwatch.redirectOutput(to: appLog)
        try layerwatch.run()
        defer {
            if layerwatch.isRunning { kill(layerwatch.processIdentifier, SIGKILL) }
            layerwatch.waitUntilExit()
        }

        // Poll the screen until the window shows the demo's picture (a loaded machine may take a while).
        var screen: Screen?
        let shown = waitUntil(timeout: 25, poll: 0.5) {
            screen = Self.screenshot(in: work, environment: base)
            return screen.map { $0.window != nil && $0.demoPicture } ?? false
        }
        let last = try XCTUnwrap(screen, "weston-screenshooter wrote no picture: \(Self.text(of: westonLog))")
        let window = try XCTUnwrap(last.window, "no window on the screen: \(Self.text(of: appLog))")
        XCTAssertTrue(shown, "the demo's picture shows: bed \(last.bed), background \(last.clipBackground), part \(last.part) pixels; \(Self.text(of: appLog))")
        XCTAssertEqual(window.width, 960, "the window's width, its decorations client-side (shadow not counted)")
        XCTAssertEqual(window.height, 680, "the window's height")
        XCTAssertTrue(layerwatch.isRunning)

        // SIGTERM ends it as Quit does: exit status 0, the window's size remembered in the config.
        layerwatch.terminate()
        XCTAssertTrue(waitUntil(timeout: 15) { !layerwatch.isRunning }, "layerwatch ends on SIGTERM")
        if !layerwatch.isRunning {
            XCTAssertEqual(layerwatch.terminationReason, .exit, Self.text(of: appLog))
            XCTAssertEqual(layerwatch.terminationStatus, 0, Self.text(of: appLog))
        }
        XCTAssertTrue(weston.isRunning, "weston outlives the app: \(Self.text(of: westonLog))")
        XCTAssertFalse(Self.text(of: appLog).contains("CRITICAL"), Self.text(of: appLog))
    }

    /// What a screenshot of the output shows.
    struct Screen {
        /// The window's bounding box (its pixels that are neither backdrop nor shadow on it).
        var window: (x: Int, y: Int, width: Int, height: Int)?
        /// Pixels of the demo clip's print bed (#3a3f47), its background (#1b1f24) and its part (#2f8f5a).
        var bed = 0, clipBackground = 0, part = 0

        /// The clip's picture, large enough to be the picture and not a stray pixel: the bed is
        /// 640×110 of the clip's 640×360 (less what the status strip covers), the part at least 156×6.
        var demoPicture: Bool { bed > 20_000 && clipBackground > 40_000 && part > 400 }
    }

    /// Takes a screenshot with weston-screenshooter and reads its pixels (ffmpeg decodes the PNG).
    private static func screenshot(in work: URL, environment: [String: String]) -> Screen? {
        let folder = work.appendingPathComponent("shot-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil else { return nil }
        defer { try? FileManager.default.removeItem(at: folder) }
        let shooter = Process()
        shooter.executableURL = URL(fileURLWithPath: "/usr/bin/weston-screenshooter")
        shooter.currentDirectoryURL = folder
        shooter.environment = environment
        shooter.standardOutput = FileHandle.nullDevice
        shooter.standardError = FileHandle.nullDevice
        guard (try? shooter.run()) != nil else { return nil }
        shooter.waitUntilExit()
        guard let png = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .first(where: { $0.pathExtension == "png" }) else { return nil }
        guard let run = try? CommandRun.system("/usr/bin/ffmpeg", ["-v", "error", "-i", png.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]),
              run.status == 0 else { return nil }
        let (width, height) = output
        guard run.data.count == width * height * 3 else { return nil }
        return analyse(run.data, width: width, height: height)
    }

    private static func analyse(_ rgb: Data, width: Int, height: Int) -> Screen {
        var screen = Screen()
        var minX = width, minY = height, maxX = -1, maxY = -1
        rgb.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 3
                    let r = Int(bytes[i]), g = Int(bytes[i + 1]), b = Int(bytes[i + 2])
                    // Backdrop, or the shadow's black blended over it.
                    if g == 0, r == b, r > 0 { continue }
                    minX = min(minX, x); maxX = max(maxX, x)
                    minY = min(minY, y); maxY = max(maxY, y)
                    if near(r, g, b, 0x3a, 0x3f, 0x47, 10) { screen.bed += 1 }
                    if near(r, g, b, 0x1b, 0x1f, 0x24, 10) { screen.clipBackground += 1 }
                    if near(r, g, b, 0x2f, 0x8f, 0x5a, 24) { screen.part += 1 }
                }
            }
        }
        if maxX >= 0 { screen.window = (minX, minY, maxX - minX + 1, maxY - minY + 1) }
        return screen
    }

    private static func near(_ r: Int, _ g: Int, _ b: Int, _ wr: Int, _ wg: Int, _ wb: Int, _ tolerance: Int) -> Bool {
        abs(r - wr) <= tolerance && abs(g - wg) <= tolerance && abs(b - wb) <= tolerance
    }

    private static func text(of log: URL) -> String {
        String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self).suffix(3000).description
    }
}

private extension Process {
    func redirectOutput(to file: URL) throws {
        FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        standardOutput = handle
        standardError = handle
    }
}

private extension CommandRun {
    /// Runs a system program and returns its exit status and its standard output as bytes.
    static func system(_ path: String, _ arguments: [String]) throws -> (status: Int32, data: Data) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }
}
