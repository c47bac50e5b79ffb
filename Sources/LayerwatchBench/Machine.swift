import Foundation

/// What the bench ran on, for the results file.
struct Machine {
    let cpuModel: String
    let cores: Int
    let kernel: String
    let ffmpegVersion: String
    let date: String

    static func current() -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last!.trimmingCharacters(in: .whitespaces) } ?? "unknown"
        var names = utsname()
        uname(&names)
        let release = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let formatter = ISO8601DateFormatter()
        return Machine(cpuModel: model, cores: ProcessInfo.processInfo.activeProcessorCount, kernel: "Linux \(release)",
                       ffmpegVersion: ffmpegVersion(), date: formatter.string(from: Date()))
    }

    private static func ffmpegVersion() -> String {
        let process = Process(), pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-version"]
        process.standardOutput = pipe
        guard (try? process.run()) != nil else { return "unknown" }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return output.split(separator: "\n").first.map(String.init) ?? "unknown"
    }
}

extension Machine {
    /// The lines every bench report lists under "## Machine".
    var markdownLines: String {
        """
        - Date: \(date)
        - CPU: \(cpuModel), \(cores) cores
        - Kernel: \(kernel)
        - FFmpeg: \(ffmpegVersion)
        """
    }
}
