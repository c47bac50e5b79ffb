import Foundation
import XCTest

/// A real peer for a test: one of the scripts in Tests/Servers, started on a free loopback port,
/// whose JSON event lines the test can await. The script exits when its stdin closes, so a crashed
/// test run leaves no server behind.
public final class TestServer: @unchecked Sendable {
    /// One JSON line the server printed.
    public struct Event: @unchecked Sendable {
        public let name: String
        public let fields: [String: Any]

        public func int(_ key: String) -> Int? { (fields[key] as? NSNumber)?.intValue }
        public func string(_ key: String) -> String? { fields[key] as? String }
    }

    /// The loopback port it listens on; 0 for a peer that lives on the D-Bus session bus instead.
    public private(set) var port = 0
    private let process: Process
    private let stdin: Pipe
    private let condition = NSCondition()
    private var events: [Event] = []

    /// Starts `script` (a file in Tests/Servers) with `arguments` and waits up to `readyTimeout`
    /// seconds for its `ready` event; on `interpreter` when given, else on `TestPaths.interpreter(for:)`.
    public init(script: String, arguments: [String] = [], interpreter: String? = nil, readyTimeout: TimeInterval = 20,
                file: StaticString = #filePath, line: UInt = #line) throws {
        let path = TestPaths.servers.appendingPathComponent(script).path
        process = Process()
        process.executableURL = URL(fileURLWithPath: try interpreter ?? TestPaths.interpreter(for: script))
        process.arguments = [path] + arguments
        stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.standardError
        try process.run()
        startReading(stdout.fileHandleForReading)
        guard let ready = waitFor("ready", timeout: readyTimeout) else {
            process.terminate()
            throw TestServerError.notReady(script)
        }
        port = ready.int("port") ?? 0
    }

    deinit {
        stop()
    }

    /// Every event seen so far with `name`.
    public func events(named name: String) -> [Event] {
        condition.withLock { events.filter { $0.name == name } }
    }

    /// The first event with `name` (and matching `where`) seen so far or arriving before `timeout`.
    @discardableResult
    public func waitFor(_ name: String, timeout: TimeInterval = 10, where match: (Event) -> Bool = { _ in true }) -> Event? {
        let deadline = Date().addingTimeInterval(timeout)
        return condition.withLock {
            while true {
                if let found = events.first(where: { $0.name == name && match($0) }) { return found }
                guard condition.wait(until: deadline) else { return nil }
            }
        }
    }

    /// Writes `command` as one JSON line to the server's stdin, for the scripts that take commands
    /// (`serve_commands` in servercommon.py); they answer with events such as `done`.
    public func send(_ command: [String: Any]) {
        guard process.isRunning, JSONSerialization.isValidJSONObject(command),
              let data = try? JSONSerialization.data(withJSONObject: command) else { return }
        try? stdin.fileHandleForWriting.write(contentsOf: data + Data([0x0A]))
    }

    /// Sends `command` and waits for the `done` or `error` it ends with (commands run one at a time,
    /// in order: it is the first after those seen before); nil when none came within `timeout`.
    @discardableResult
    public func perform(_ command: [String: Any], timeout: TimeInterval = 10) -> Event? {
        let finished = { (events: [Event]) in events.filter { $0.name == "done" || $0.name == "error" } }
        let seen = condition.withLock { finished(events).count }
        send(command)
        let deadline = Date().addingTimeInterval(timeout)
        return condition.withLock {
            while true {
                let ended = finished(events)
                if ended.count > seen { return ended[seen] }
                guard condition.wait(until: deadline) else { return nil }
            }
        }
    }

    /// Ends the server (SIGTERM, then SIGKILL) and waits for it to exit.
    public func stop() {
        guard process.isRunning else { return }
        thaw()
        process.terminate()
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Kills the server abruptly, as a crashing or rebooting printer would vanish.
    public func kill9() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Freezes the server (SIGSTOP): its connections stay open but nothing more arrives, as when a
    /// printer's camera process hangs.
    public func freeze() {
        kill(process.processIdentifier, SIGSTOP)
    }

    /// Lets a frozen server go on (SIGCONT).
    public func thaw() {
        kill(process.processIdentifier, SIGCONT)
    }

    private func startReading(_ handle: FileHandle) {
        let thread = Thread { [weak self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = pending[pending.startIndex..<newline]
                    pending.removeSubrange(pending.startIndex...newline)
                    guard let self else { return }
                    self.record(line)
                }
            }
        }
        thread.start()
    }

    private func record(_ line: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
              let name = object["event"] as? String else { return }
        condition.withLock {
            events.append(Event(name: name, fields: object))
            condition.broadcast()
        }
    }
}

/// A test server that never said it was ready.
public enum TestServerError: Error {
    case notReady(String)
}

/// Where the test servers and tools live.
public enum TestPaths {
    /// Debian's Python, which has GObject introspection for GstRtspServer.
    public static let systemPython = "/usr/bin/python3"

    /// The repository's root, found from this file's place in Tests/TestSupport.
    public static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static let servers = repository.appendingPathComponent("Tests/Servers")

    /// The Python a server script runs on when its test names none: Debian's, except that the
    /// WebRTC camera runs on the aiortc `Aiortc.chosen` names.
    public static func interpreter(for script: String) throws -> String {
        script == "webrtc_camera.py" ? try Aiortc.chosen.python() : systemPython
    }

    /// A fresh temporary directory (tests use `makeTemporaryDirectory()`, which also removes it).
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("layerwatch-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

extension XCTestCase {
    /// A new empty directory for this test, removed when the test ends.
    public func makeTemporaryDirectory() throws -> URL {
        let url = try TestPaths.temporaryDirectory()
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
