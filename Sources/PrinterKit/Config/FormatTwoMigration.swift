import Foundation

/// Reads a format-1 or 2 `printers.json` as format 3. Those formats had no cameras list: "Find
/// Cameras" with two cameras ticked saved two printers of one Klipper host, each with its own
/// status connection and notifications. Such entries are joined into one printer: entries of the
/// same kind, host and API port (Klipper, OctoPrint) or the same serial (Bambu) become the first
/// one's printer, their cameras in file order, each camera keeping its entry's id, URL, password and
/// mounting. A plain camera (generic) is never joined. Nothing is lost: the joined printer takes
/// the first API key or code, notifies if any entry did, and the first timelapse.
enum FormatTwoMigration {
    /// Joins the entries of one printer in `config` and points its selection and mini windows at
    /// the joined printers (a mini window at the camera it showed). Returns the ids of the entries
    /// that became a camera of another printer.
    static func joinPrinters(of config: inout AppConfig) -> Set<UUID> {
        var joined: [Printer] = []
        var owner: [UUID: UUID] = [:]  // an entry's id → its printer's
        var groups: [[Printer]] = []
        var groupOfKey: [String: Int] = [:]
        for printer in config.printers {
            let key = joinKey(of: printer)
            if let key, let index = groupOfKey[key] {
                groups[index].append(printer)
            } else {
                if let key { groupOfKey[key] = groups.count }
                groups.append([printer])
            }
        }
        for group in groups {
            let printer = group.count == 1 ? group[0] : join(group)
            joined.append(printer)
            group.forEach { owner[$0.id] = printer.id }
        }
        config.printers = joined
        config.selectedPrinterID = config.selectedPrinterID.flatMap { owner[$0] }
        var seen = Set<UUID>()
        config.miniWindows = config.miniWindows.compactMap { mini in
            // An entry's camera kept the entry's id; two entries' windows become one per printer.
            guard let printerID = owner[mini.printerID], seen.insert(printerID).inserted else { return nil }
            return AppConfig.MiniWindow(printerID: printerID, cameraID: mini.cameraID ?? mini.printerID,
                                        width: mini.width, height: mini.height)
        }
        return Set(owner.filter { $0.key != $0.value }.keys)
    }

    /// What entries of one printer share; nil for one never joined.
    private static func joinKey(of printer: Printer) -> String? {
        printer.kind.family.formatTwoJoinKey(of: printer)
    }

    /// One printer from the entries of `group` (two or more, in file order), named after the first
    /// without its " — camera" suffix; each camera named by what follows that name in its entry.
    private static func join(_ group: [Printer]) -> Printer {
        var printer = group[0]
        printer.name = commonName(group.map(\.name))
        printer.accessCode = group.first { !$0.accessCode.isEmpty }?.accessCode ?? ""
        printer.notifies = group.contains { $0.notifies }
        printer.timelapse = group.lazy.compactMap(\.timelapse).first
        printer.cameras = PrinterCamera.kept(group.flatMap { entry in
            entry.cameras.map { camera in
                var camera = camera
                camera.name = cameraName(entry.name, printer: printer.name)
                return camera
            }
        })
        return printer
    }

    /// The separator the add dialog put between a printer's name and a camera's.
    private static let separator = " — "

    /// The name `names` share before a separator ("Voron" for "Voron — Nozzle" and "Voron — Bed"),
    /// else the first name without its last " — …" part, else the first name.
    static func commonName(_ names: [String]) -> String {
        let first = names[0]
        var end = first.endIndex
        while let range = first.range(of: separator, options: .backwards, range: first.startIndex..<end) {
            let prefix = String(first[..<range.lowerBound])
            if !prefix.isEmpty && names.allSatisfy({ $0.hasPrefix(prefix + separator) }) { return prefix }
            end = range.lowerBound
        }
        if let range = first.range(of: separator, options: .backwards), range.lowerBound > first.startIndex {
            return String(first[..<range.lowerBound])
        }
        return first
    }

    /// An entry's camera name: what follows the printer's name and the separator, else the whole.
    static func cameraName(_ entry: String, printer: String) -> String {
        let prefix = printer + separator
        return entry.hasPrefix(prefix) && entry.count > prefix.count ? String(entry.dropFirst(prefix.count)) : entry
    }
}
