import Foundation
import StatusKit

/// When a print's moments were, as its History page writes them: the day and the clock time (on the
/// desktop's clock format), or the clock time alone for a moment on the day the print started.
@MainActor
enum PrintMoments {
    /// `Thu, 28 May 2026 at 20:26` in the user's locale (English).
    static func day(_ date: Date) -> String {
        string(date, template: "yMMMdEEE")
    }

    /// `14:02` on the day `start` was, else as `day` writes it.
    static func time(_ date: Date, sameDayAs start: Date) -> String {
        Calendar.current.isDate(date, inSameDayAs: start) ? string(date, template: "") : day(date)
    }

    private static func string(_ date: Date, template: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = .current
        formatter.setLocalizedDateFormatFromTemplate(template + StatusText.clockTemplate(DesktopClock.shared.format))
        return formatter.string(from: date)
    }
}
