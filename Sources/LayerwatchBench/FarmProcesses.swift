import Foundation

/// The process trees a farm scenario runs (one Layerwatch, or one peer process per stream): their
/// CPU summed, their memory summed, and the bench's other processes whose CPU the report shows
/// beside them (the RTSP server, which encodes on the same two cores).
struct FarmProcesses {
    let roots: [Int32]

    /// Every process of the trees now running.
    var pids: [Int32] {
        var children: [Int32: [Int32]] = [:]
        for (pid, parent) in Self.parents() { children[parent, default: []].append(pid) }
        var all: [Int32] = [], pending = roots
        while let pid = pending.popLast() {
            all.append(pid)
            pending += children[pid] ?? []
        }
        return all
    }

    /// User + system CPU seconds of the trees.
    var cpuSeconds: Double { roots.map(ProcFS.treeCPUSeconds(root:)).reduce(0, +) }

    /// A `/proc/PID/status` memory field (`VmRSS`, `VmHWM`) summed over the trees, in MiB.
    func megabytes(_ field: String) -> Double? {
        let values = pids.compactMap { ProcFS.statusMegabytes(field, pid: "\($0)") }
        return values.isEmpty ? nil : values.reduce(0, +)
    }

    /// Busy CPU seconds of the whole machine (every core: user, nice, system, irq, softirq, steal),
    /// from `/proc/stat`: what the processes the bench knows did not use was someone else's.
    static func machineBusySeconds() -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
              let line = stat.split(separator: "\n").first, line.hasPrefix("cpu ") else { return nil }
        let ticks = line.split(separator: " ").dropFirst().compactMap { Double($0) }
        guard ticks.count >= 8 else { return nil }
        let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7]
        return busy / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// This process's children whose command line holds `text` (the RTSP server: `rtsp_server.py`).
    static func children(matching text: String) -> [Int32] {
        let me = getpid()
        return parents().filter { pid, parent in
            guard parent == me, let line = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else { return false }
            return String(decoding: line, as: UTF8.self).contains(text)
        }.map(\.pid)
    }

    /// (pid, parent pid) of every process.
    private static func parents() -> [(pid: Int32, parent: Int32)] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { name in
            guard let pid = Int32(name), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, let parent = Int32(fields[1]) else { return nil }
            return (pid, parent)
        }
    }
}
