import ArgumentParser
import Foundation
import JournalKit
import PrinterKit
import StreamKit

/// `layerwatch history`: the prints Layerwatch recorded in its journal (window or not), newest
/// first, as a table, JSON or CSV; filtered by printer, start and result. A journal that cannot be
/// read is set aside as the app does (`JournalStore`), said on standard error, and the list is the
/// new journal's: empty.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: tr("List the prints Layerwatch recorded, newest first."),
        discussion: tr("Exit codes: 0 listed (even none), 1 the journal could not be opened or no printer has that name, 64 invalid options.")
    )

    @Option(name: .long, help: ArgumentHelp(tr("Only the prints of the printer with this name."), valueName: "NAME"))
    var printer: String?

    @Option(name: .long, help: ArgumentHelp(tr("Only the prints started since this time ago (30m, 24h, 7d, 2w) or this date (2026-12-01, 2026-12-01T08:30)."),
                                            valueName: "TIME"))
    var since: String?

    @Option(name: .long, help: ArgumentHelp(tr("Only the prints that ended so: finished, failed or cancelled."), valueName: "RESULT"))
    var result: String?

    @Flag(name: .long, help: ArgumentHelp(tr("Print the prints as a JSON array.")))
    var json = false

    @Flag(name: .long, help: ArgumentHelp(tr("Print the prints as CSV, a header line first.")))
    var csv = false

    func validate() throws {
        if json && csv { throw ValidationError(tr("Give either --json or --csv.")) }
        if let since, HistorySince.moment(since) == nil {
            throw ValidationError(String(format: tr("--since takes a time ago such as 30m, 24h or 7d, or a date such as 2026-12-01, not “%@”."), since))
        }
        if let result, Self.ended(result) == nil {
            throw ValidationError(String(format: tr("--result takes finished, failed or cancelled, not “%@”."), result))
        }
    }

    /// The result `text` names, of those a print ends with.
    private static func ended(_ text: String) -> PrintResult? {
        PrintResult(rawValue: text.lowercased()).flatMap { $0 == .underway ? nil : $0 }
    }

    func run() throws {
        let store = JournalStore(url: JournalStore.defaultURL())
        defer { store.close() }
        guard JournalOpeningWords.tell(store) else { throw ExitCode(1) }
        let everything = Int(Int32.max)
        let query = JournalQuery(started: since.flatMap { HistorySince.moment($0) }.map { DateInterval(start: $0, end: .distantFuture) },
                                 results: result.flatMap(Self.ended).map { [$0] }, limit: everything)
        var prints = store.prints(query)
        if let printer {
            let saved = ConfigStore(directory: ConfigStore.defaultDirectory(), secrets: nil).loadFile(settingAside: false).config.printers
            let ids = Set(saved.filter { $0.name == printer || $0.id.uuidString == printer.uppercased() }.map(\.id.uuidString))
            let recorded = Set(store.prints(JournalQuery(limit: everything)).map(\.printerName))
            guard !ids.isEmpty || recorded.contains(printer) else {
                let known = Set(saved.map(\.name)).union(recorded).sorted().map { String(format: tr("“%@”"), TerminalText.safe($0)) }
                printError(known.isEmpty ? String(format: tr("No printer is called “%@”; there are none."), TerminalText.safe(printer))
                                         : String(format: tr("No printer is called “%@”; there are %@."), TerminalText.safe(printer),
                                                  known.joined(separator: ", ")))
                throw ExitCode(1)
            }
            prints = prints.filter { ids.contains($0.printerID) || $0.printerName == printer }
        }
        if json {
            print(HistoryReportFormatter.json(prints, videos: store.videosByPrint()))
        } else if csv {
            print(HistoryReportFormatter.csv(prints, videos: store.videosByPrint()))
        } else {
            print(HistoryReportFormatter.text(prints, filtered: printer != nil || since != nil || result != nil))
        }
    }

    private func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
