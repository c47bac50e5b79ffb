import Foundation

/// Video clips made at test time with the ffmpeg command-line tool, so no binary test data is kept.
public enum TestClips {
    /// An H.264 clip of SMPTE colour bars, `seconds` long at `fps`, in a fresh temporary directory.
    public static func smpteBars(width: Int = 320, height: Int = 240, fps: Int = 10, seconds: Double = 1) throws -> URL {
        let url = try TestPaths.temporaryDirectory().appendingPathComponent("bars.mp4")
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi",
                            "-i", "smptebars=size=\(width)x\(height):rate=\(fps)", "-t", "\(seconds)",
                            "-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "\(fps)", url.path]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        guard ffmpeg.terminationStatus == 0 else { throw TestClipError.ffmpegFailed(ffmpeg.terminationStatus) }
        return url
    }
}

/// ffmpeg could not make a test clip.
public enum TestClipError: Error {
    case ffmpegFailed(Int32)
}
