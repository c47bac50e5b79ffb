import Foundation

/// Log lines captured from `StreamLog` while a test runs.
public final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []

    public init() {}

    public func append(_ line: String) { lock.withLock { list.append(line) } }

    public var lines: [String] { lock.withLock { list } }
}
