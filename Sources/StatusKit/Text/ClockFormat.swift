/// A 24-hour or a 12-hour clock: what the desktop says times are shown on (GNOME's
/// `org.gnome.desktop.interface clock-format`, whose values these are), over the locale's habit.
public enum ClockFormat: String, Sendable {
    case twentyFourHour = "24h"
    case twelveHour = "12h"
}
