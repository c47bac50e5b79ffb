import Foundation

/// CPU time and memory of a process, from /proc and getrusage.
enum ProcFS {
    /// User + system CPU seconds of process `pid` (all its threads).
    static func cpuSeconds(pid: Int32) -> Double? {
        cpuSeconds(statFile: "/proc/\(pid)/stat")
    }

    /// User + system CPU seconds of thread `tid` of process `pid` (its main thread when they agree).
    static func cpuSeconds(pid: Int32, thread tid: Int32) -> Double? {
        cpuSeconds(statFile: "/proc/\(pid)/task/\(tid)/stat")
    }

    /// The utime and stime fields of a `stat` file, in seconds.
    private static func cpuSeconds(statFile: String) -> Double? {
        guard let stat = try? String(contentsOfFile: statFile, encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// User + system CPU seconds of this process.
    static func selfCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// A `/proc/PID/status` field in MiB (`VmHWM` is the peak resident set, `VmRSS` the current one).
    static func statusMegabytes(_ field: String, pid: String = "self") -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first
            return kilobytes.map { $0 / 1024 }
        }
        return nil
    }

    /// What process `pid` runs now, program name first (`/proc/PID/cmdline`); empty once it is gone.
    static func arguments(of pid: Int32) -> [String] {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }
}
