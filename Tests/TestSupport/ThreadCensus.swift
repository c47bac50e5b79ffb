import Foundation

/// Counts this process's live threads by name (from /proc), to prove a session left none behind.
public enum ThreadCensus {
    /// Threads whose name starts with `prefix` (Linux keeps the first 15 bytes of a name).
    public static func count(prefix: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        let wanted = String(prefix.prefix(15))
        return tasks.filter { task in
            guard let name = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8) else { return false }
            return name.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix(wanted)
        }.count
    }
}
