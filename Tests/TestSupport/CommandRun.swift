import Foundation

/// Runs a built product of this package (e.g. `layerwatch`) and captures its output, for tests of
/// the command line as a user meets it.
public struct CommandRun {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    /// The directory holding the test runner, where SwiftPM also puts the package's executables.
    public static var productsDirectory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    }

    /// Runs `product` with `arguments`, waiting at most `timeout` seconds; through `launcher` when
    /// given (a command that runs the rest of its line: `prlimit --fsize=N`); `input` is its
    /// standard input (none when nil).
    public static func product(_ product: String, _ arguments: [String], timeout: TimeInterval = 60,
                               environment: [String: String] = [:], launcher: [String] = [], input: String? = nil) throws -> CommandRun {
        let executable = productsDirectory.appendingPathComponent(product)
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw CommandRunError.notBuilt(executable.path)
        }
        return try run(executable, arguments, timeout: timeout, environment: environment, launcher: launcher, input: input)
    }

    /// Runs the program at `executable` as `product` runs a product (a test's helper script, say).
    public static func run(_ executable: URL, _ arguments: [String], timeout: TimeInterval = 60,
                           environment: [String: String] = [:], launcher: [String] = [], input: String? = nil) throws -> CommandRun {
        let process = Process()
        process.executableURL = launcher.first.map { URL(fileURLWithPath: $0) } ?? executable
        process.arguments = launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + [executable.path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = input.map { _ in Pipe() }
        process.standardInput = stdin ?? FileHandle.nullDevice
        try process.run()
        if let stdin, let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        let outData = PipeDrain(out), errData = PipeDrain(err)
        guard outData.wait(timeout: timeout), errData.wait(timeout: 1) else {
            process.terminate()
            throw CommandRunError.timedOut(executable.lastPathComponent)
        }
        process.waitUntilExit()
        return CommandRun(status: process.terminationStatus, stdout: outData.text, stderr: errData.text)
    }
}

/// Reads a pipe to its end on a background thread (so neither of a child's pipes can fill and block it).
private final class PipeDrain: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ pipe: Pipe) {
        DispatchQueue.global().async { [self] in
            data = pipe.fileHandleForReading.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait(timeout: TimeInterval) -> Bool {
        done.wait(timeout: .now() + timeout) == .success
    }

    /// The text read; call after `wait` succeeded.
    var text: String { String(decoding: data, as: UTF8.self) }
}

/// Why a product could not be run.
public enum CommandRunError: Error, CustomStringConvertible {
    case notBuilt(String)
    case timedOut(String)

    public var description: String {
        switch self {
        case .notBuilt(let path): return "\(path) is not built: run `swift build` before `swift test`"
        case .timedOut(let product): return "\(product) did not finish in time"
        }
    }
}
