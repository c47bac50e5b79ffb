import Foundation
import JournalKit
import StreamKit

/// What `layerwatch history` prints of the journal's prints, newest first: a table for people, or
/// the same prints as JSON or CSV for programs — each with its job, result, start and end (ISO 8601,
/// UTC), duration in seconds, printer, error, final picture's path, whether it was taken from
/// the printer's own history (it ended while Layerwatch was not running), the paths of the videos
/// made of it (its timelapse, recordings) and whether Layerwatch started it.
enum HistoryReportFormatter {
    /// The machine formats' columns, in order (the JSON objects' keys).
    static let columns = ["job", "result", "start", "end", "duration", "printer", "error", "finalPicture", "fromPrinterHistory", "videos",
                          "startedFromLayerwatch"]

    /// A table: start (local time), printer, job, result and duration, a column each; or a sentence
    /// when there is no print.
    static func text(_ prints: [JournalPrint], filtered: Bool) -> String {
        guard !prints.isEmpty else { return filtered ? tr("No recorded print matches.") : tr("No print has been recorded yet.") }
        let started = DateFormatter()
        started.locale = Locale(identifier: "en_US_POSIX")
        started.dateFormat = "yyyy-MM-dd HH:mm"
        return TextTable.text(header: [tr("STARTED"), tr("PRINTER"), tr("JOB"), tr("RESULT"), tr("DURATION")],
                              rows: prints.map { print in
            [started.string(from: print.started), TerminalText.safe(print.printerName), TerminalText.safe(print.job ?? "–"),
             words(print.result), print.duration.map(duration) ?? "–"]
        })
    }

    /// An array of objects with `columns`' keys; what a print has not (an end, a picture) is null,
    /// its `videos` a list of paths (`videos`: each print's, by key).
    static func json(_ prints: [JournalPrint], videos: [String: [JournalVideo]] = [:]) -> String {
        TextTable.json(prints.map { print in
            Dictionary(uniqueKeysWithValues: zip(columns, values(of: print, videos: videos[print.key] ?? []).map { $0 ?? NSNull() }))
        })
    }

    /// A header of `columns` and a line per print (RFC 4180: a field with a comma, a quote or a
    /// line break is quoted); what a print has not is an empty field, its videos' paths one a line.
    static func csv(_ prints: [JournalPrint], videos: [String: [JournalVideo]] = [:]) -> String {
        let lines = [columns] + prints.map { print in
            values(of: print, videos: videos[print.key] ?? []).map { value in
                (value as? [String])?.joined(separator: "\n") ?? value.map { "\($0)" } ?? ""
            }
        }
        return lines.map { $0.map(csvField).joined(separator: ",") }.joined(separator: "\r\n")
    }

    /// A print's values, in `columns`' order.
    private static func values(of print: JournalPrint, videos: [JournalVideo]) -> [Any?] {
        let iso = ISO8601DateFormatter()
        return [print.job, print.result.rawValue, iso.string(from: print.started), print.ended.map(iso.string(from:)),
                print.duration.map { Int($0.rounded()) }, print.printerName, print.error, print.finalPicture?.path,
                print.fromPrinterHistory, videos.map(\.file.path), print.startedFromLayerwatch]
    }

    private static func csvField(_ field: String) -> String {
        guard field.contains(where: { [",", "\"", "\n", "\r"].contains($0) }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func words(_ result: PrintResult) -> String {
        switch result {
        case .underway: tr("Printing")
        case .finished: tr("Finished")
        case .failed: tr("Failed")
        case .cancelled: tr("Cancelled")
        }
    }

    /// `seconds` as hours and minutes, minutes, or seconds under a minute.
    static func duration(_ seconds: TimeInterval) -> String {
        let total = Int(seconds.rounded())
        if total < 60 { return String(format: tr("%ld s"), total) }
        if total < 3600 { return String(format: tr("%ld min"), total / 60) }
        return String(format: tr("%ld h %02ld min"), total / 3600, total % 3600 / 60)
    }
}
