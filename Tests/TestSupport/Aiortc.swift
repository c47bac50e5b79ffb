import Foundation

/// The aiortc a WebRTC camera (`webrtc_camera.py`) runs on. Layerwatch must connect to Debian's
/// 1.4 and to PyPI's current release, whose DTLS offers only ECDHE-ECDSA cipher suites (none of
/// them shared with a peer whose certificate is RSA), so the WebRTC tests play against both.
public enum Aiortc: String, CaseIterable, Sendable {
    /// Debian 12's python3-aiortc (1.4), in /usr/bin/python3.
    case debian
    /// PyPI's (pinned in Tests/Servers/pypi-aiortc.txt), in a venv beside Debian's python3-gi that
    /// Tests/Servers/pypi-aiortc.sh makes in the user's cache at its first use.
    case pypi

    /// The aiortc of a camera whose test names none: Debian's, or the one `LAYERWATCH_TEST_AIORTC`
    /// names (`LAYERWATCH_TEST_AIORTC=pypi swift test --filter WebRTC` runs the WebRTC suites
    /// against PyPI's).
    public static var chosen: Aiortc {
        ProcessInfo.processInfo.environment["LAYERWATCH_TEST_AIORTC"].flatMap(Aiortc.init(rawValue:)) ?? .debian
    }

    /// The Python that runs `webrtc_camera.py` on this aiortc.
    public func python() throws -> String {
        switch self {
        case .debian: return TestPaths.systemPython
        case .pypi: return try Self.pypiPython.get()
        }
    }

    /// The venv's Python, made (or found) once per test process.
    private static let pypiPython = Result<String, Error> {
        let run = try CommandRun.run(TestPaths.servers.appendingPathComponent("pypi-aiortc.sh"), [], timeout: 600)
        guard run.status == 0 else { throw AiortcError(detail: run.stderr) }
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Why PyPI's aiortc could not be had (no python3-venv, PyPI out of reach): what
/// Tests/Servers/pypi-aiortc.sh said.
public struct AiortcError: Error, CustomStringConvertible {
    let detail: String

    public var description: String { "Tests/Servers/pypi-aiortc.sh could not make PyPI's aiortc venv: \(detail)" }
}
