import Foundation
import TestSupport
import XCTest

/// Runs one test again in a child copy of this test binary, with its own environment (its own
/// session bus, or none). Secret Service tests need this: GDBus and libsecret connect to the
/// session bus once per process and keep it, and the other tests in this process must not see it.
extension XCTestCase {
    private static let childMarker = "LAYERWATCH_TEST_CHILD"

    /// True when this process is the child `runInChild` started for this very test.
    func isChild(_ test: String = #function) -> Bool {
        ProcessInfo.processInfo.environment[Self.childMarker] == childName(test)
    }

    /// Starts `launcher` (a program and its arguments; may be empty) followed by this test binary
    /// and this test's name, in a clean environment plus `environment`, and fails unless the child
    /// ran exactly this test and it passed. The child's HOME and XDG directories are fresh.
    func runInChild(_ test: String = #function, launcher: [String] = [], environment: [String: String] = [:],
                    file: StaticString = #filePath, line: UInt = #line) throws {
        let home = try makeTemporaryDirectory()
        var childEnvironment = ProcessInfo.processInfo.environment.filter {
            !["DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS"].contains($0.key)
        }
        for name in ["config", "data", "cache", "runtime"] {
            try FileManager.default.createDirectory(at: home.appendingPathComponent(name), withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
        }
        childEnvironment["HOME"] = home.path
        childEnvironment["XDG_CONFIG_HOME"] = home.appendingPathComponent("config").path
        childEnvironment["XDG_DATA_HOME"] = home.appendingPathComponent("data").path
        childEnvironment["XDG_CACHE_HOME"] = home.appendingPathComponent("cache").path
        childEnvironment["XDG_RUNTIME_DIR"] = home.appendingPathComponent("runtime").path
        childEnvironment[Self.childMarker] = childName(test)
        childEnvironment.merge(environment) { $1 }

        let output = home.appendingPathComponent("output.txt")
        try Data().write(to: output)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let binary = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        process.arguments = launcher + [binary, childName(test)]
        process.environment = childEnvironment
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = process.standardOutput
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        if exited.wait(timeout: .now() + 120) == .timedOut {
            process.terminate()
            exited.wait()
            XCTFail("the child test did not finish within 120 s", file: file, line: line)
        }
        let log = String(decoding: try Data(contentsOf: output), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 0, "child output:\n\(log)", file: file, line: line)
        XCTAssertTrue(log.contains("Executed 1 test, with 0 failures"), "child output:\n\(log)", file: file, line: line)
    }

    /// `Module.Class/test`, the name XCTest takes to run one test.
    private func childName(_ test: String) -> String {
        "\(String(reflecting: type(of: self)))/\(test.replacingOccurrences(of: "()", with: ""))"
    }
}
