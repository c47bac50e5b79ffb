import Foundation

/// Every process the screen bench starts (X server, window manager, session bus, players), so that
/// all of them end when the bench ends: normally, on an error, or on Ctrl-C or SIGTERM; and what it
/// leaves on disk, removed however the process exits.
enum StartedProcesses {
    nonisolated(unsafe) private static var running: [Process] = []
    nonisolated(unsafe) private static var cleanups: [() -> Void] = []
    private static let lock = NSLock()
    nonisolated(unsafe) private static var signalSources: [DispatchSourceSignal] = []

    /// Starts `executable` with `arguments`; `environment` is added to this process's own.
    static func start(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                      stdout: Any? = FileHandle.nullDevice, stderr: Any? = FileHandle.nullDevice) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr
        try lock.withLock {
            try process.run()
            running.append(process)
        }
        return process
    }

    /// Ends `process`: SIGTERM, then SIGKILL if it is still there after three seconds.
    static func stop(_ process: Process) {
        lock.withLock { running.removeAll { $0 === process } }
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Ends every process still running, the last started first.
    static func stopAll() {
        for process in lock.withLock({ running.reversed() }) { stop(process) }
    }

    /// On SIGINT or SIGTERM ends everything (the X server last), then exits.
    static func stopAllOnSignals() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                stopAll()
                exit(128 + number)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Runs `cleanup` when the process exits, however it does: from `main`, from `exit` (which Xlib
    /// calls when the X server goes away under a grab, as on Ctrl-C) or after a signal.
    static func atExit(_ cleanup: @escaping () -> Void) {
        lock.withLock {
            if cleanups.isEmpty { atexit { StartedProcesses.cleanups.forEach { $0() } } }
            cleanups.append(cleanup)
        }
    }
}
