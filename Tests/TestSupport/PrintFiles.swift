import Foundation

/// Print files made as slicers make them, by Tests/Servers/print_files.py (text and binary
/// G-code, 3MF projects, damaged ones on request), for the tests of what a file says about itself.
public enum PrintFiles {
    /// Runs `print_files.py command url options…`, which writes the file at `url`: what it says it
    /// put there (the thumbnails' sizes, a QOI thumbnail's pixel hash, the plates).
    @discardableResult
    public static func make(_ command: String, at url: URL, _ options: [String] = []) throws -> [String: Any] {
        try run([command, url.path] + options)
    }

    /// The width, height and SHA-256 of the pixels of the 8-bit RGBA PNG at `url`, decoded by the
    /// script (any row filter), not by Layerwatch.
    public static func pngPixels(at url: URL) throws -> [String: Any] {
        try run(["png-pixels", url.path])
    }

    private static func run(_ arguments: [String]) throws -> [String: Any] {
        let script = TestPaths.servers.appendingPathComponent("print_files.py").path
        let run = try CommandRun.run(URL(fileURLWithPath: TestPaths.systemPython), [script] + arguments, timeout: 300)
        guard run.status == 0, let said = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] else {
            throw PrintFilesError.failed(run.stderr)
        }
        return said
    }
}

/// print_files.py failed: what it said on stderr.
public enum PrintFilesError: Error {
    case failed(String)
}
