import Foundation

/// What FFmpeg's own tools make of a recorded file: its video stream's codec and size, how many
/// pictures decode, and what the decoder complained of while decoding all of it.
public struct RecordedFile {
    public let codec: String
    public let width: Int
    public let height: Int
    /// Pictures decoded from the whole file.
    public let frames: Int
    /// The file's duration in seconds, as the container says.
    public let seconds: Double
    /// `ffmpeg -v error -i FILE -f null -`'s messages: empty for a clean decode.
    public let decodeErrors: String

    public init(_ url: URL) throws {
        let probe = try Self.run("/usr/bin/ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0",
                                                      "-show_entries", "stream=codec_name,width,height,nb_read_frames",
                                                      "-show_entries", "format=duration", "-of", "default=noprint_wrappers=1", url.path])
        var fields: [String: String] = [:]
        for line in probe.output.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        codec = fields["codec_name"] ?? ""
        width = Int(fields["width"] ?? "") ?? 0
        height = Int(fields["height"] ?? "") ?? 0
        frames = Int(fields["nb_read_frames"] ?? "") ?? 0
        seconds = Double(fields["duration"] ?? "") ?? 0
        decodeErrors = try Self.run("/usr/bin/ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-i", url.path, "-f", "null", "-"]).errors
    }

    private static func run(_ tool: String, _ arguments: [String]) throws -> (output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile(), errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }
}
