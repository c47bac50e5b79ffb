import Foundation

/// CPU of a whole process tree (a player is charged for every helper process it starts), and of a
/// process's threads by name (Mesa's llvmpipe threads show whether GTK really renders with GL).
extension ProcFS {
    /// User + system CPU seconds of `root` and its descendants now running.
    static func treeCPUSeconds(root: Int32) -> Double {
        var children: [Int32: [Int32]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(name), let parent = statFields("/proc/\(pid)/stat").flatMap({ Int32($0[1]) }) else { continue }
            children[parent, default: []].append(pid)
        }
        var total = 0.0, pending = [root]
        while let pid = pending.popLast() {
            total += cpuSeconds(pid: pid) ?? 0
            pending += children[pid] ?? []
        }
        return total
    }

    /// User + system CPU seconds of the threads of `pid` whose name starts with `prefix`.
    static func threadsCPUSeconds(pid: Int32, named prefix: String) -> Double {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        let ticks = tasks.compactMap { task -> Double? in
            let path = "/proc/\(pid)/task/\(task)"
            guard let name = try? String(contentsOfFile: "\(path)/comm", encoding: .utf8), name.hasPrefix(prefix),
                  let fields = statFields(path + "/stat"), let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
            return user + system
        }
        return ticks.reduce(0, +) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// User + system CPU seconds of each thread of `pid` now, by thread name (`comm`), threads of
    /// the same name summed: where a process's time goes, without a profiler.
    static func threadCPUSecondsByName(pid: Int32) -> [String: Double] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var seconds: [String: Double] = [:]
        for task in tasks {
            let path = "/proc/\(pid)/task/\(task)"
            guard let name = try? String(contentsOfFile: "\(path)/comm", encoding: .utf8),
                  let fields = statFields(path + "/stat"), let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
            seconds[name.trimmingCharacters(in: .whitespacesAndNewlines), default: 0] += (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        }
        return seconds
    }

    /// The fields of a `stat` file after the command name (the state first), at least 13 of them.
    private static func statFields(_ path: String) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: path, encoding: .utf8), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 12 ? fields : nil
    }
}
