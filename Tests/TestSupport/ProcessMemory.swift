import Foundation

/// This process's memory as the kernel counts it (/proc/self/status), so a test can show that
/// something was never allocated and filled.
public enum ProcessMemory {
    /// Resident set size in bytes (`VmRSS`): the memory the process really occupies now. Nil if
    /// /proc cannot be read.
    public static var residentBytes: Int? { status("VmRSS") }

    /// The most the resident set has been since the process started (`VmHWM`), or since
    /// `resetPeak()`: what a test's work took at its worst.
    public static var peakResidentBytes: Int? { status("VmHWM") }

    /// Starts the peak (`VmHWM`) anew from the current resident set (writing 5 to
    /// /proc/self/clear_refs), so that a test measures its own peak only; false if it cannot.
    @discardableResult
    public static func resetPeak() -> Bool {
        (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil
    }

    private static func status(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }) else { return nil }
        let fields = line.split(whereSeparator: \.isWhitespace)
        guard fields.count == 3, fields[2] == "kB", let kibibytes = Int(fields[1]) else { return nil }
        return kibibytes * 1024
    }
}
