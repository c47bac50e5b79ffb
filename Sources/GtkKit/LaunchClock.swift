import Foundation

/// Milliseconds since the process was started (by the kernel's count, in its 10 ms ticks), for the
/// debug log's start-up milestones: the window on screen, the first picture.
@MainActor
public enum LaunchClock {
    private static var logged: Set<String> = []

    /// Logs `milestone` with the time since start, the first time it is reached.
    public static func reached(_ milestone: String) {
        guard logged.insert(milestone).inserted, let elapsed = millisecondsSinceStart() else { return }
        GLibLog.debug("\(milestone) \(elapsed) ms after start")
    }

    private static func millisecondsSinceStart() -> Int? {
        // Field 22 of /proc/self/stat, counted after the command name's closing parenthesis.
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 19,
              let ticks = Double(fields[19]) else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        let uptime = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        return Int((uptime - ticks / Double(sysconf(Int32(_SC_CLK_TCK)))) * 1000)
    }
}
