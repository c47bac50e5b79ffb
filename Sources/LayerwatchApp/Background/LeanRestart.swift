import Foundation
import GtkKit

/// Closed to the background, a process still holds what its window used: GTK's caches, the freed
/// memory of its cameras in glibc's arenas, the pages of the libraries it drew with — twice what a
/// process started in the background holds (bench/BACKGROUND.md). So once nothing in its memory
/// has to outlive the window, the process replaces itself (the same process id) with
/// `layerwatch --background`, which starts as a login start does: the status and notifications go on
/// from the saved config and the notification ledger, and launching Layerwatch shows the window.
@MainActor
enum LeanRestart {
    /// What the process becomes: its own program name, with `--background`.
    static var arguments: [String] { [CommandLine.arguments.first ?? "layerwatch", LayerwatchApplication.LaunchFlag.background.argument] }
    /// The descriptors the process was started with (`noteInheritedDescriptors`), which the new
    /// process keeps as this one had them: what started it may watch them (a launcher's pipe).
    private static var inherited: Set<Int32> = []

    /// Notes the descriptors open now, before Layerwatch opens any: the ones it was started with.
    static func noteInheritedDescriptors() {
        inherited = Set(openDescriptors())
    }

    /// Replaces this process with `arguments` of its own executable, closing every file it opened
    /// (a status connection's socket left open would hold one of a printer's few client places),
    /// with `environment`'s variables added to its own. Returns only when that failed, with why
    /// (the variables removed again).
    static func replaceProcess(environment: [String: String] = [:]) -> String {
        closeOnExec()
        for (name, value) in environment { setenv(name, value, 1) }
        defer { for name in environment.keys { unsetenv(name) } }
        _ = withCStringArray(arguments) { argv in
            argv.withMemoryRebound(to: UnsafeMutablePointer<CChar>?.self, capacity: arguments.count + 1) {
                execv("/proc/self/exe", $0)
            }
        }
        return String(cString: strerror(errno))
    }

    /// Marks every descriptor the process opened close-on-exec.
    private static func closeOnExec() {
        for descriptor in openDescriptors() where !inherited.contains(descriptor) {
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    private static func openDescriptors() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap(Int32.init)
    }
}
