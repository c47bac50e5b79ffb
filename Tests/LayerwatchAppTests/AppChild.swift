import Foundation
import TestSupport
import XCTest

/// Running one app test in a child copy of the test binary on a private session bus, for the tests
/// with a Secret Service of their own: libsecret keeps the first bus, and the first owner of
/// `org.freedesktop.secrets`, it meets for the whole process, so no other test may share it.
enum AppChild {
    /// Names the test the child runs; set only in that child.
    static let marker = "LAYERWATCH_KEYRING_CHILD"

    /// The launcher of a bus with an unlocked gnome-keyring. The keyring needs a non-empty password:
    /// with an empty one `--unlock` does not create the login collection the default alias points to.
    static let unlockedKeyring = [
        "dbus-run-session", "--", "sh", "-c",
        "printf %s layerwatch-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec \"$@\"", "sh",
    ]

    /// The launcher of a bare bus: the test starts its own Secret Service on it.
    static let privateBus = ["dbus-run-session", "--"]
}

extension XCTestCase {
    /// True in the child `runInAppChild` started for this very test.
    func isAppChild(_ test: String = #function) -> Bool {
        ProcessInfo.processInfo.environment[AppChild.marker] == appChildName(test)
    }

    /// Runs this test again in a child copy of the test binary under `launcher` (a private session
    /// bus: `AppChild`), on the same X display, with fresh HOME and XDG folders.
    func runInAppChild(_ test: String = #function, launcher: [String]) throws {
        let home = try makeTemporaryDirectory()
        var environment = ProcessInfo.processInfo.environment.filter { $0.key != "DBUS_SESSION_BUS_ADDRESS" }
        for name in ["config", "data", "cache", "runtime"] {
            try FileManager.default.createDirectory(at: home.appendingPathComponent(name), withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o700])
            environment[name == "runtime" ? "XDG_RUNTIME_DIR" : "XDG_\(name.uppercased())_HOME"] = home.appendingPathComponent(name).path
        }
        environment["HOME"] = home.path
        environment[AppChild.marker] = appChildName(test)
        let output = home.appendingPathComponent("output.txt")
        try Data().write(to: output)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = launcher + [try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"), appChildName(test)]
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = process.standardOutput
        try process.run()
        process.waitUntilExit()
        let log = String(decoding: try Data(contentsOf: output), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 0, "child output:\n\(log)")
        XCTAssertTrue(log.contains("Executed 1 test, with 0 failures"), "child output:\n\(log)")
    }

    private func appChildName(_ test: String) -> String {
        "\(String(reflecting: type(of: self)))/\(test.replacingOccurrences(of: "()", with: ""))"
    }
}
