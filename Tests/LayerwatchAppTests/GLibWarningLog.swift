import CGtk
import Foundation

/// Every GLib warning and critical this test process logs (GTK's "Failed to set text from markup"
/// among them), still printed as usual, so a test can show that what it did logged none. GTK logs
/// through GLib's structured log, which only a writer function sees, and GLib allows one writer per
/// process: `install()` sets it once, whoever calls first.
enum GLibWarningLog {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var messages: [String] = []

    static func install() {
        _ = installed
    }

    /// How many warnings have been logged so far; pass it to `messages(since:)` later.
    static var mark: Int { lock.withLock { messages.count } }

    /// The warnings logged after `mark`, as "domain: message".
    static func messages(since mark: Int) -> [String] {
        lock.withLock { Array(messages.dropFirst(mark)) }
    }

    private static let installed: Void = {
        g_log_set_writer_func({ level, fields, count, data in
            let serious = G_LOG_LEVEL_WARNING.rawValue | G_LOG_LEVEL_CRITICAL.rawValue | G_LOG_LEVEL_ERROR.rawValue
            if level.rawValue & serious != 0, let fields {
                var domain = "", message = ""
                for field in UnsafeBufferPointer(start: fields, count: Int(count)) {
                    guard let value = field.value, field.length < 0 else { continue }
                    switch String(cString: field.key) {
                    case "GLIB_DOMAIN": domain = String(cString: value.assumingMemoryBound(to: CChar.self))
                    case "MESSAGE": message = String(cString: value.assumingMemoryBound(to: CChar.self))
                    default: break
                    }
                }
                GLibWarningLog.lock.withLock { GLibWarningLog.messages.append("\(domain): \(message)") }
            }
            return g_log_writer_default(level, fields, count, data)
        }, nil, nil)
    }()
}
