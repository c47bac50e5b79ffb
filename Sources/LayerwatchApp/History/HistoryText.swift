import Foundation
import JournalKit
import StatusKit
import StreamKit

/// How the History page words a print: its day's heading, its result, when it started and how
/// long it ran.
@MainActor
enum HistoryText {
    /// "Today", "Yesterday", else the weekday and date ("Monday 30 November"), with the year when
    /// it is not this year's.
    static func day(_ date: Date, now: Date = Date(), calendar: Calendar = .current) -> String {
        if calendar.isDate(date, inSameDayAs: now) { return tr("Today") }
        if let yesterday = calendar.date(byAdding: .day, value: -1, to: now), calendar.isDate(date, inSameDayAs: yesterday) {
            return tr("Yesterday")
        }
        let thisYear = calendar.component(.year, from: date) == calendar.component(.year, from: now)
        return (thisYear ? dayFormatter : yearDayFormatter).string(from: date)
    }

    private static let dayFormatter = formatter("EEEEdMMMM")
    private static let yearDayFormatter = formatter("EEEEdMMMMy")

    private static func formatter(_ template: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.setLocalizedDateFormatFromTemplate(template)
        return formatter
    }

    /// The clock time of `date`, as the desktop's clock shows time ("14:05").
    static func time(_ date: Date) -> String {
        StatusText.finishTime(after: 0, from: date, clock: DesktopClock.shared.format)
    }

    /// The chip of a list of the prints ended since `date`: "Since 14:05", or with its day
    /// ("Since Yesterday 14:05") when it is not today.
    static func since(_ date: Date, now: Date = Date()) -> String {
        let when = Calendar.current.isDate(date, inSameDayAs: now) ? time(date) : "\(day(date, now: now)) \(time(date))"
        // TRANSLATORS: the History page lists the prints ended since a time; %@ is the time ("14:05", "Yesterday 14:05").
        return String(format: tr("Since %@"), when)
    }

    /// "Finished", "Failed: the printer's words", "Cancelled", "Under way".
    static func result(of print: JournalPrint) -> String {
        switch print.result {
        case .finished: return StatusText.state(.finished)
        case .cancelled: return StatusText.state(.cancelled)
        case .underway: return tr("Under way")
        case .failed:
            guard let error = print.error, !error.isEmpty else { return StatusText.state(.failed) }
            // TRANSLATORS: a failed print in the History page; %@ is the printer's words for the failure.
            return String(format: tr("Failed: %@"), error)
        }
    }

    /// The printer, the start time and how long it ran: "Voron · 14:05 · 2 h 05 min".
    static func details(of print: JournalPrint) -> String {
        let ran = print.duration.map(StatusText.duration) ?? tr("under way")
        return [print.printerName, time(print.started), ran].joined(separator: " · ")
    }

    /// The style class of the result's words: green, red, amber or dimmed.
    static func styleClass(of result: PrintResult) -> String {
        switch result {
        case .finished: "success"
        case .failed: "error"
        case .cancelled: "warning"
        case .underway: "accent"
        }
    }
}
