import Foundation
import XCTest

/// PyPI's OctoPrint, the real peer the upload tests send files to (Tests/Servers/real_octoprint.py
/// runs it with its virtual printer; Tests/Servers/pypi-octoprint.sh makes its venv at first use).
public enum RealOctoPrint {
    /// A started OctoPrint with its virtual printer operational, and its API key; the test is
    /// skipped, saying why, when OctoPrint could not be installed (CI installs it).
    public static func start(in test: XCTestCase) throws -> (server: TestServer, key: String) {
        let octoprint: String
        do {
            octoprint = try executable.get()
        } catch {
            throw XCTSkip("PyPI's OctoPrint could not be installed: \(error)")
        }
        let server = try TestServer(script: "real_octoprint.py", arguments: ["--octoprint", octoprint], readyTimeout: 150)
        test.addTeardownBlock { server.stop() }
        return (server, server.waitFor("ready")?.string("key") ?? "")
    }

    /// The venv's `octoprint`, made (or found) once per test process.
    private static let executable = Result<String, Error> {
        let run = try CommandRun.run(TestPaths.servers.appendingPathComponent("pypi-octoprint.sh"), [], timeout: 900)
        guard run.status == 0 else { throw RealOctoPrintError(detail: run.stderr) }
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// What Tests/Servers/pypi-octoprint.sh said when it could not make OctoPrint's venv.
public struct RealOctoPrintError: Error, CustomStringConvertible {
    let detail: String

    public var description: String { "Tests/Servers/pypi-octoprint.sh could not make OctoPrint's venv: \(detail)" }
}
