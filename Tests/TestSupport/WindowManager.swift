import Foundation

/// A real window manager (openbox) on the test's X display, for checks that only a window manager
/// makes true: keep-above (`_NET_WM_STATE_ABOVE`) is a request to it, not a window property GTK sets.
public final class WindowManager {
    private let process = Process()

    /// Starts openbox and waits until it has announced itself on the root window.
    public init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openbox")
        process.arguments = ["--sm-disable"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        guard waitUntil(timeout: 10, { Self.rootHasWindowManager() }) else {
            process.terminate()
            throw WindowManagerError.didNotStart
        }
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    /// `xprop -id XID PROPERTY` as text (empty when xprop fails).
    public static func property(_ name: String, of xid: UInt) -> String {
        run("/usr/bin/xprop", ["-id", String(xid), name])
    }

    private static func rootHasWindowManager() -> Bool {
        run("/usr/bin/xprop", ["-root", "_NET_SUPPORTING_WM_CHECK"]).contains("window id")
    }

    private static func run(_ tool: String, _ arguments: [String]) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "" }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}

/// openbox did not come up.
public enum WindowManagerError: Error {
    case didNotStart
}
