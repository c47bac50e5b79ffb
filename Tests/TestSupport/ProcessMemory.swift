import Foundation

/// This process's memory as the kernel counts it (/proc/self/status), so a test can show that
/// something was never allocated and filled.
public enum ProcessMemory {
    /// Resident set size in bytes (`VmRSS`): the memory the process really occupies now. Nil if
    /// /proc cannot be read.
    public static var residentBytes: Int? { field("VmRSS") }

    /// The most the resident set reached (`VmHWM`) since the process began or `resetPeak()`.
    public static var peakResidentBytes: Int? { field("VmHWM") }

    /// Starts the peak over from the resident set now (Linux's clear_refs 5).
    public static func resetPeak() throws {
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    private static func field(_ name: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("\(name):") }) else { return nil }
        let fields = line.split(whereSeparator: \.isWhitespace)
        guard fields.count == 3, fields[2] == "kB", let kibibytes = Int(fields[1]) else { return nil }
        return kibibytes * 1024
    }
}
