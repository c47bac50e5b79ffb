import Foundation

/// The test servers speak JSON lines on stdout (`rtsp_server.py`'s client events, the Moonraker
/// fake's requests): the bench reads them one line at a time as they come.
extension FileHandle {
    /// The next line without its newline; nil at the end of the output.
    func readLineData() -> Data? {
        var line = Data()
        while let byte = try? read(upToCount: 1), let first = byte.first {
            if first == 10 { return line }
            line.append(first)
        }
        return line.isEmpty ? nil : line
    }
}
