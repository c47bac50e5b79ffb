import Foundation

/// Counts this process's live threads by name (from /proc), to prove a session left none behind,
/// and what processor time they used, to prove a flood costs a bounded share of a core.
public enum ThreadCensus {
    /// Threads whose name starts with `prefix` (Linux keeps the first 15 bytes of a name).
    public static func count(prefix: String) -> Int {
        tasks(prefix: prefix).count
    }

    /// CPU seconds (user + system) the live threads whose name starts with `prefix` have used.
    public static func cpuSeconds(prefix: String) -> Double {
        tasks(prefix: prefix).map { cpuSeconds(statFile: "/proc/self/task/\($0)/stat") }.reduce(0, +)
    }

    /// The CPU seconds (user + system) in a /proc `stat` file (clock ticks of 1/100 s).
    public static func cpuSeconds(statFile path: String) -> Double {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let end = text.lastIndex(of: ")") else { return 0 }
        let fields = text[text.index(after: end)...].split(separator: " ")
        // After the command: state is field 3, utime 14 and stime 15 (1-based, whole line).
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private static func tasks(prefix: String) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        let wanted = String(prefix.prefix(15))
        return tasks.filter { task in
            guard let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8) else { return false }
            return name.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix(wanted)
        }
    }
}
