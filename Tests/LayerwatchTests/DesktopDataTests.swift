import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TestSupport
import XCTest

/// Layerwatch as a desktop sees it: the desktop file, AppStream metainfo and icons in data/, the
/// Flatpak manifest, and a real meson install (meson-wrap/) whose binary runs and finds its data.
/// Uses the real validators (desktop-file-validate, appstreamcli) and the real meson and swift.
final class DesktopDataTests: XCTestCase {
    static let appID = "io.github.layerwatch.Layerwatch"
    static let repository = TestPaths.repository
    static let data = repository.appendingPathComponent("data")
    static let desktopFile = data.appendingPathComponent("\(appID).desktop")
    static let metainfoFile = data.appendingPathComponent("\(appID).metainfo.xml")
    static let scalableIcon = data.appendingPathComponent("icons/hicolor/scalable/apps/\(appID).svg")
    static let symbolicIcon = data.appendingPathComponent("icons/hicolor/symbolic/apps/\(appID)-symbolic.svg")
    static let flatpakManifest = repository.appendingPathComponent("flatpak/\(appID).json")
    static let screenshotURLPrefix = "https://github.com/layerwatch/layerwatch/raw/main/docs/screenshots/"

    // MARK: desktop file

    func testDesktopFileValidatesAndLaunchesLayerwatch() throws {
        let run = try Tool.run("desktop-file-validate", [Self.desktopFile.path])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(run.output.trimmingCharacters(in: .whitespacesAndNewlines), "", "desktop-file-validate complained")

        let entry = try desktopEntry()
        XCTAssertEqual(entry["Type"], "Application")
        XCTAssertEqual(entry["Name"], "Layerwatch")
        XCTAssertEqual(entry["GenericName"], "Printer Camera Viewer")
        XCTAssertEqual(entry["Icon"], Self.appID)
        XCTAssertEqual(entry["StartupNotify"], "true")
        XCTAssertNil(entry["DBusActivatable"], "the app does not implement D-Bus activation yet")
        XCTAssertEqual(entry["Exec"]?.split(separator: " ").first, "layerwatch")
        let keywords = Set((entry["Keywords"] ?? "").split(separator: ";").map(String.init))
        for keyword in ["3D printer", "Bambu", "camera", "webcam", "Klipper", "OctoPrint", "RTSP"] {
            XCTAssertTrue(keywords.contains(keyword), "Keywords lack \(keyword)")
        }
    }

    // MARK: AppStream

    func testMetainfoValidatesAndDescribesTheApp() throws {
        let run = try Tool.run("appstreamcli", ["validate", "--no-net", Self.metainfoFile.path])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertTrue(run.output.contains("Validation was successful"), run.output)
        XCTAssertFalse(run.output.contains("\nW:") || run.output.hasPrefix("W:"), "warnings: \(run.output)")

        let document = try XMLDocument(contentsOf: Self.metainfoFile, options: [])
        func text(_ path: String) throws -> [String] {
            try document.nodes(forXPath: path).compactMap { $0.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines) }
        }
        XCTAssertEqual(try text("/component/id"), [Self.appID])
        XCTAssertEqual(try text("/component/@type"), ["desktop-application"])
        XCTAssertEqual(try text("/component/launchable[@type='desktop-id']"), ["\(Self.appID).desktop"])
        XCTAssertEqual(try text("/component/provides/binary"), ["layerwatch"])
        XCTAssertEqual(try text("/component/metadata_license"), ["CC0-1.0"])
        XCTAssertEqual(try text("/component/project_license"), ["MIT"])
        XCTAssertEqual(try text("/component/content_rating/@type"), ["oars-1.1"])
        XCTAssertEqual(try text("/component/requires/display_length[@compare='ge']"), ["360"])
        XCTAssertEqual(try text("/component/branding/color").count, 2)
        XCTAssertGreaterThanOrEqual(try text("/component/description/p").count, 2)

        // The newest release is the version meson installs (and `--version` prints, see the meson test).
        XCTAssertEqual(try text("/component/releases/release[1]/@version").first, try mesonProjectVersion())
        XCTAssertEqual(try text("/component/releases/release[1]/@date").first, "2026-11-22")

        // Every screenshot is a PNG of docs/screenshots, with its real size.
        let images = try document.nodes(forXPath: "/component/screenshots/screenshot/image") as? [XMLElement] ?? []
        XCTAssertGreaterThanOrEqual(images.count, 3)
        for image in images {
            let url = image.stringValue ?? ""
            XCTAssertTrue(url.hasPrefix(Self.screenshotURLPrefix), url)
            let file = Self.repository.appendingPathComponent("docs/screenshots")
                .appendingPathComponent(String(url.dropFirst(Self.screenshotURLPrefix.count)))
            let size = try XCTUnwrap(pngSize(file), "\(file.path) is not a PNG in the repository")
            XCTAssertEqual(image.attribute(forName: "width")?.stringValue, String(size.width), url)
            XCTAssertEqual(image.attribute(forName: "height")?.stringValue, String(size.height), url)
        }
        XCTAssertEqual(try text("/component/screenshots/screenshot[@type='default']").count, 1)
    }

    // MARK: icons

    func testIconsAreSVGsOfTheirSizes() throws {
        let scalable = try XCTUnwrap(try XMLDocument(contentsOf: Self.scalableIcon, options: []).rootElement())
        XCTAssertEqual(scalable.localName, "svg")
        XCTAssertEqual(attribute("width", of: scalable), "128")
        XCTAssertEqual(attribute("height", of: scalable), "128")
        XCTAssertEqual(attribute("viewBox", of: scalable), "0 0 128 128")

        let symbolic = try XCTUnwrap(try XMLDocument(contentsOf: Self.symbolicIcon, options: []).rootElement())
        XCTAssertEqual(symbolic.localName, "svg")
        XCTAssertEqual(attribute("width", of: symbolic), "16")
        XCTAssertEqual(attribute("height", of: symbolic), "16")
        XCTAssertEqual(attribute("viewBox", of: symbolic), "0 0 16 16")
        // Symbolic icons are recoloured by GTK through their fills: one colour, filled shapes, no strokes.
        let shapes = try symbolic.nodes(forXPath: "//*") as? [XMLElement] ?? []
        let fills = Set(shapes.compactMap { attribute("fill", of: $0) })
        XCTAssertEqual(fills.count, 1, "symbolic icon uses colours \(fills)")
        XCTAssertEqual(shapes.filter { $0.localName == "path" }.count, 2)
        XCTAssertTrue(shapes.allSatisfy { attribute("stroke", of: $0) == nil }, "symbolic icon has strokes")
        XCTAssertFalse(shapes.contains { ($0.localName ?? "").hasSuffix("Gradient") }, "symbolic icon has gradients")
    }

    // MARK: Flatpak

    func testFlatpakManifestParsesAndNamesOnlyFilesThatExist() throws {
        let manifestFolder = Self.flatpakManifest.deletingLastPathComponent()
        let manifest = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: Self.flatpakManifest)) as? [String: Any])
        XCTAssertEqual(manifest["id"] as? String, Self.appID)
        XCTAssertEqual(manifest["command"] as? String, "layerwatch")
        XCTAssertTrue((manifest["sdk-extensions"] as? [String] ?? []).contains { $0.hasPrefix("org.freedesktop.Sdk.Extension.swift") })
        let finishArgs = Set(manifest["finish-args"] as? [String] ?? [])
        for permission in ["--share=network", "--socket=wayland", "--socket=fallback-x11", "--device=dri"] {
            XCTAssertTrue(finishArgs.contains(permission), "finish-args lack \(permission)")
        }

        let modules = try XCTUnwrap(manifest["modules"] as? [[String: Any]])
        let app = try XCTUnwrap(modules.first { $0["name"] as? String == "layerwatch" })
        XCTAssertEqual(app["buildsystem"] as? String, "meson")
        let sources = try XCTUnwrap(app["sources"] as? [[String: Any]])
        var checked = 0
        for source in sources {
            guard let path = source["path"] as? String else { continue }
            let local = manifestFolder.appendingPathComponent(path).standardizedFileURL
            XCTAssertTrue(FileManager.default.fileExists(atPath: local.path), "the manifest names \(path), which is not at \(local.path)")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 2)
        let tree = try XCTUnwrap(sources.first { $0["type"] as? String == "dir" }?["path"] as? String)
        let subdir = try XCTUnwrap(app["subdir"] as? String)
        let mesonBuild = manifestFolder.appendingPathComponent(tree).appendingPathComponent(subdir)
            .appendingPathComponent("meson.build").standardizedFileURL
        XCTAssertTrue(FileManager.default.fileExists(atPath: mesonBuild.path), mesonBuild.path)

        // The vendored dependency (builds are offline) is the one Package.swift asks for, at a
        // release tag, and mirrored by the SwiftPM mirrors file.
        let packageSwift = try String(contentsOf: Self.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let vendored = sources.filter { $0["type"] as? String == "git" }
        XCTAssertFalse(vendored.isEmpty)
        let mirrorsFile = try XCTUnwrap(sources.first { $0["dest-filename"] as? String == "mirrors.json" }?["path"] as? String)
        let mirrors = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: manifestFolder.appendingPathComponent(mirrorsFile))) as? [String: Any])
        let mirrored = (mirrors["object"] as? [[String: String]] ?? []).compactMap { $0["original"] }
        for source in vendored {
            let url = try XCTUnwrap(source["url"] as? String)
            let original = url.hasSuffix(".git") ? String(url.dropLast(4)) : url
            XCTAssertTrue(packageSwift.contains("\"\(original)\""), "Package.swift does not depend on \(original)")
            XCTAssertTrue(mirrored.contains(original), "no SwiftPM mirror for \(original)")
            XCTAssertNotNil(source["tag"] as? String, "\(original) is fetched at a release tag")
        }
        let dependencies = packageSwift.components(separatedBy: ".package(url:").count - 1
        XCTAssertEqual(dependencies, vendored.count, "every SwiftPM dependency must be vendored")

        // flatpak-builder itself loads it (the build needs flathub, which this machine can't reach).
        let loaded = try Tool.run("flatpak-builder", ["--show-manifest", Self.flatpakManifest.path], timeout: 60)
        XCTAssertEqual(loaded.status, 0, loaded.output)
        let shown = try JSONSerialization.jsonObject(with: Data(loaded.output.utf8)) as? [String: Any]
        XCTAssertEqual(shown?["id"] as? String, Self.appID, loaded.output)
        let shownModules = shown?["modules"] as? [[String: Any]] ?? []
        XCTAssertEqual(shownModules.compactMap { $0["name"] as? String },
                       ["libmosquitto", "libnice", "libsrtp2", "gst-plugins-bad-webrtc", "layerwatch"])
        // The GNOME runtime has no libmosquitto (the manifest builds the client library alone), nor
        // libnice, libsrtp or gst-plugins-bad's webrtcbin: each is built from a release tag.
        let mosquitto = try XCTUnwrap(shownModules.first)
        XCTAssertTrue((mosquitto["config-opts"] as? [String] ?? []).contains("-DWITH_BROKER=OFF"))
        for module in shownModules.dropLast() {
            XCTAssertNotNil((module["sources"] as? [[String: Any]])?.first?["tag"] as? String, "\(module["name"] ?? "?") is fetched at a release tag")
        }
    }

    // MARK: meson install

    /// Configures, builds (release, in meson's own SwiftPM scratch folder), tests and installs with
    /// meson into a DESTDIR, then runs the installed binary. Slow: a full release build.
    func testMesonInstallGivesTheDesktopTreeAndABinaryThatFindsItsData() throws {
        let work = try TestPaths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: work) }
        let build = work.appendingPathComponent("build"), destdir = work.appendingPathComponent("dest")
        let mesonSource = Self.repository.appendingPathComponent("meson-wrap")
        let started = Date()

        let setup = try Tool.run("meson", ["setup", "--prefix=/usr/local", build.path, mesonSource.path], timeout: 120)
        XCTAssertEqual(setup.status, 0, setup.output)
        let compile = try Tool.run("meson", ["compile", "-C", build.path], timeout: 1800)
        XCTAssertEqual(compile.status, 0, compile.output)
        guard compile.status == 0 else { return }
        XCTAssertTrue(FileManager.default.fileExists(atPath: build.appendingPathComponent("swiftpm/release").path),
                      "SwiftPM did not build in meson's own scratch folder")
        let mesonTest = try Tool.run("meson", ["test", "-C", build.path, "--print-errorlogs"], timeout: 300)
        XCTAssertEqual(mesonTest.status, 0, mesonTest.output)
        let install = try Tool.run("meson", ["install", "-C", build.path, "--no-rebuild"], timeout: 300,
                                   environment: ["DESTDIR": destdir.path])
        XCTAssertEqual(install.status, 0, install.output)

        let prefix = destdir.appendingPathComponent("usr/local")
        let installed = Set(try FileManager.default.subpathsOfDirectory(atPath: prefix.path))
        let expected = [
            "bin/layerwatch",
            "share/applications/\(Self.appID).desktop",
            "share/metainfo/\(Self.appID).metainfo.xml",
            "share/icons/hicolor/scalable/apps/\(Self.appID).svg",
            "share/icons/hicolor/symbolic/apps/\(Self.appID)-symbolic.svg",
            "share/icons/hicolor/scalable/actions/layerwatch-lightbulb-symbolic.svg",
            "share/layerwatch/demo-printer.mp4",
            "share/layerwatch/style.css",
            "share/layerwatch/shortcuts.ui",
            "share/locale/de/LC_MESSAGES/layerwatch.mo",
        ]
        for path in expected {
            XCTAssertTrue(installed.contains(path), "not installed: \(path); installed: \(installed.sorted())")
        }
        let binary = prefix.appendingPathComponent("bin/layerwatch")

        let version = try Tool.run(binary.path, ["--version"], timeout: 60)
        XCTAssertEqual(version.status, 0, version.output)
        XCTAssertEqual(version.output.trimmingCharacters(in: .whitespacesAndNewlines), try mesonProjectVersion())
        XCTAssertEqual(version.output.trimmingCharacters(in: .whitespacesAndNewlines), "0.1.0")

        // It finds its translations in ../share/locale.
        let german = try Tool.run(binary.path, ["probe", "not a url"], timeout: 60,
                                  environment: ["LANGUAGE": "de", "LANG": "C.UTF-8", "LC_ALL": nil, "LC_MESSAGES": nil,
                                                "LAYERWATCH_LOCALE_DIR": nil])
        XCTAssertEqual(german.status, 2, german.output)
        XCTAssertTrue(german.output.contains("ist keine URL"), german.output)

        // The installed viewer's demo printer (`--demo`) plays the clip from ../share/layerwatch:
        // run it on a display (the test's Xvfb, or one of its own) with a private session bus and
        // look for the clip among its open files.
        let clip = prefix.appendingPathComponent("share/layerwatch/demo-printer.mp4").path
        let opened = try Self.filesOpened(byRunning: binary.path, home: work.appendingPathComponent("home"), until: { $0.contains(clip) })
        XCTAssertTrue(opened.contains(clip), "the installed viewer did not open \(clip); it had open: \(opened.sorted())")

        print("meson setup+compile+test+install and checks took \(Int(Date().timeIntervalSince(started))) s")
    }

    // MARK: helpers

    /// Starts `executable` (through dbus-run-session, and xvfb-run when there is no DISPLAY) with
    /// its XDG folders under `home`, collects the files it holds open until `until` holds or 30 s
    /// pass, then stops it.
    private static func filesOpened(byRunning executable: String, home: URL,
                                    until done: (Set<String>) -> Bool) throws -> Set<String> {
        var environment = ProcessInfo.processInfo.environment
        environment["LAYERWATCH_DATA_DIR"] = nil
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        for (variable, folder) in [("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"),
                                   ("XDG_CACHE_HOME", "cache"), ("XDG_STATE_HOME", "state")] {
            let url = home.appendingPathComponent(folder)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            environment[variable] = url.path
        }
        environment["GSETTINGS_BACKEND"] = "memory"
        var command = ["dbus-run-session", "--", executable, "--demo"]
        if (environment["DISPLAY"] ?? "").isEmpty && (environment["WAYLAND_DISPLAY"] ?? "").isEmpty {
            command = ["xvfb-run", "-a"] + command
        }
        let wrapper = Process()
        wrapper.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        wrapper.arguments = command
        wrapper.environment = environment
        wrapper.standardInput = FileHandle.nullDevice
        wrapper.standardOutput = FileHandle.nullDevice
        wrapper.standardError = FileHandle.nullDevice
        try wrapper.run()

        var opened = Set<String>()
        var viewers: [Int32] = []
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && wrapper.isRunning {
            viewers = processes(running: executable)
            opened.formUnion(viewers.flatMap(openFiles))
            if done(opened) { break }
            Thread.sleep(forTimeInterval: 0.2)
        }
        for pid in processes(running: executable) { kill(pid, SIGTERM) }
        let exitLimit = Date().addingTimeInterval(15)
        while wrapper.isRunning && Date() < exitLimit { Thread.sleep(forTimeInterval: 0.1) }
        if wrapper.isRunning {
            for pid in processes(running: executable) { kill(pid, SIGKILL) }
            wrapper.terminate()
        }
        return opened
    }

    /// The processes whose executable is `path`.
    private static func processes(running path: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\($0)/exe")) == path
        }
    }

    /// The files a process holds open.
    private static func openFiles(_ pid: Int32) -> [String] {
        let folder = "/proc/\(pid)/fd"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)")
        }
    }

    /// An unprefixed attribute's value (FoundationXML's attribute(forName:) misses them on elements
    /// in a default namespace, as in SVG).
    private func attribute(_ name: String, of element: XMLElement) -> String? {
        element.attributes?.first { $0.localName == name || $0.name == name }?.stringValue
    }

    private func desktopEntry() throws -> [String: String] {
        var entry: [String: String] = [:]
        var inEntry = false
        for line in try String(contentsOf: Self.desktopFile, encoding: .utf8).split(separator: "\n") {
            if line.hasPrefix("[") { inEntry = line == "[Desktop Entry]"; continue }
            guard inEntry, let equals = line.firstIndex(of: "="), !line.hasPrefix("#") else { continue }
            entry[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return entry
    }

    private func mesonProjectVersion() throws -> String? {
        let text = try String(contentsOf: Self.repository.appendingPathComponent("meson-wrap/meson.build"), encoding: .utf8)
        guard let range = text.range(of: #"\bversion:\s*'([^']+)'"#, options: .regularExpression) else { return nil }
        return String(text[range]).split(separator: "'")[1].description
    }

    /// A PNG's width and height from its IHDR chunk.
    private func pngSize(_ file: URL) -> (width: Int, height: Int)? {
        guard let data = try? Data(contentsOf: file), data.count >= 24,
              data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { return nil }
        let number = { (offset: Int) in data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }
}

/// Runs a tool found on PATH (or by path) with its output, both streams together, in a file, so a
/// long build can neither fill a pipe nor be lost. (TranslationTests uses it too.)
struct Tool {
    let status: Int32
    let output: String

    static func run(_ tool: String, _ arguments: [String], timeout: TimeInterval = 60,
                    environment: [String: String?] = [:]) throws -> Tool {
        let process = Process()
        if tool.contains("/") {
            process.executableURL = URL(fileURLWithPath: tool)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [tool] + arguments
        }
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = "/opt/swift/usr/bin:" + (env["PATH"] ?? "/usr/bin:/bin")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("layerwatch-tool-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        try process.run()
        if done.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            _ = done.wait(timeout: .now() + 10)
            try? handle.close()
            throw ToolError.timedOut("\(tool) \(arguments.joined(separator: " "))", timeout)
        }
        try? handle.close()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        if process.terminationStatus == 127, output.contains("No such file") || output.contains("not found") {
            throw ToolError.missing(tool)
        }
        return Tool(status: process.terminationStatus, output: output)
    }
}

enum ToolError: Error, CustomStringConvertible {
    case missing(String)
    case timedOut(String, TimeInterval)

    var description: String {
        switch self {
        case .missing(let tool): return "\(tool) is not installed: run scripts/install-deps.sh test"
        case .timedOut(let command, let limit): return "`\(command)` did not finish in \(Int(limit)) s"
        }
    }
}
