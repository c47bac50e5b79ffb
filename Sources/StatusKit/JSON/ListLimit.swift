import Foundation
import StreamKit

/// How many entries of each list a printer reports Layerwatch keeps, and the one place the rest are
/// dropped. A list is cut while it is read (after `JSONPruner` has already kept no more than 256
/// entries of any list for parsing), and the first cut of each kind is logged once a process, so a
/// printer repeating a huge list cannot flood the log either.
public enum ListLimit {
    /// Bambu HMS alerts shown at once: a printer in real trouble raises a handful; a notification
    /// or the strip could not show more than a few dozen anyway.
    public static let alerts = 64
    /// Nozzles (Bambu's `device.extruder.info`, OctoPrint's `toolN`): printers have one to a few.
    public static let nozzles = 16
    /// AMS units on one Bambu printer: four AMS and eight AMS HT at most today.
    public static let amsUnits = 16
    /// Trays of one AMS unit: four (an AMS HT has one); `tray_now` has two bits for the tray.
    public static let amsTrays = 4
    /// Cameras in one Moonraker or OctoPrint import: more than a dialog can list usefully.
    public static let cameras = 64
    /// Streams in one go2rtc import: a farm restreamer has one or two a printer.
    public static let streams = 256
    /// Jobs read of a printer's own history (`RememberedPrint`): a night or a weekend of prints.
    public static let historyJobs = 50

    /// The first `limit` entries of `list`; the cut (if any) logged once a process under `what`.
    public static func first<Entries: Collection>(_ list: Entries, _ limit: Int, of what: String) -> Entries.SubSequence {
        if list.count > limit {
            logOnce(what, "kept the first \(limit) \(what) of \(list.count)")
        }
        return list.prefix(limit)
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var logged: Set<String> = []

    /// Logs `message` the first time `key` is seen in this process.
    static func logOnce(_ key: String, _ message: @autoclosure () -> String) {
        guard lock.withLock({ logged.insert(key).inserted }) else { return }
        StreamLog.log(.info, "status: " + message() + " (said once)")
    }
}
