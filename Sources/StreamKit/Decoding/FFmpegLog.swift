import CFFmpeg
import Foundation

/// Routes FFmpeg's global `av_log` output to the session whose thread produced it. FFmpeg's own
/// messages carry the real reason of a failure ("method DESCRIBE failed: 401 Unauthorized"), which the
/// classifier reads; they are redacted and kept per thread instead of being printed to stderr.
enum FFmpegLog {
    /// Lines logged on the calling thread since `begin()`; only warnings and errors are kept.
    final class Capture {
        fileprivate(set) var lines: [String] = []
        /// How many lines were ever appended (`lines` keeps only the newest), to find those logged
        /// during one call.
        fileprivate(set) var appended = 0
        fileprivate let redactor: Redactor
        init(redactor: Redactor) {
            self.redactor = redactor
        }

        /// Whether any captured line contains `text` (case-insensitive).
        func mentions(_ text: String) -> Bool {
            lines.contains { $0.range(of: text, options: .caseInsensitive) != nil }
        }

        fileprivate func append(_ line: String) {
            let clean = redactor.redact(line)
            if lines.count == 32 { lines.removeFirst() }
            lines.append(clean)
            appended += 1
            StreamLog.log(.debug, "FFmpeg: \(clean)")
        }

        /// The lines appended after `appended` was `mark` (at most the 32 kept).
        func lines(since mark: Int) -> ArraySlice<String> {
            lines.suffix(min(lines.count, max(0, appended - mark)))
        }

        func clear() {
            lines.removeAll()
        }
    }

    nonisolated(unsafe) private static var key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        av_log_set_callback { _, level, format, arguments in
            guard level <= AV_LOG_WARNING, let format, let arguments,
                  let raw = pthread_getspecific(FFmpegLog.key) else { return }
            var buffer = [CChar](repeating: 0, count: 1024)
            _ = vsnprintf(&buffer, buffer.count, format, arguments)
            let line = String(cString: buffer).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !line.isEmpty else { return }
            Unmanaged<Capture>.fromOpaque(raw).takeUnretainedValue().append(line)
        }
        return key
    }()

    /// Starts capturing this thread's FFmpeg messages into `capture` (retained until `end()`).
    static func begin(_ capture: Capture) {
        pthread_setspecific(key, Unmanaged.passRetained(capture).toOpaque())
    }

    /// The capture of the calling thread, if it began one.
    static var current: Capture? {
        pthread_getspecific(key).map { Unmanaged<Capture>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Stops capturing on this thread.
    static func end() {
        guard let raw = pthread_getspecific(key) else { return }
        pthread_setspecific(key, nil)
        Unmanaged<Capture>.fromOpaque(raw).release()
    }
}
