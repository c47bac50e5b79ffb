import Foundation
import JournalKit
import StatusKit
import TestSupport
import XCTest

/// `layerwatch print FILE TARGET…` as a user runs it against the Moonraker fake (which stores what
/// it receives and starts it): the file reaches several printers in parallel, whole, and each then
/// reports printing it; it asks on a terminal (a real pseudo-terminal through `script`) and sends
/// nothing when told no, nor without `--yes` off a terminal; a busy printer is refused before a
/// byte goes while the others print, and the exit is non-zero; Ctrl+C cancels an upload under way
/// (no print starts, the partial file is deleted); the prints it starts are marked in the user's
/// print journal for whichever process records them.
final class PrintFileCommandTests: XCTestCase {
    private func moonraker() throws -> TestServer {
        let server = try TestServer(script: "moonraker_server.py", arguments: [])
        addTeardownBlock { server.stop() }
        return server
    }

    /// The printers.json of saved Klipper printers `names` on `servers` (of `ids`, else new ones);
    /// no keyring.
    private func savedPrinters(_ names: [String], on servers: [TestServer], ids: [UUID]? = nil) throws -> [String: String] {
        let config = try makeTemporaryDirectory()
        let folder = config.appendingPathComponent("layerwatch")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let printers = zip(zip(names, servers), ids ?? names.map { _ in UUID() }).map { named, id -> [String: Any] in
            let (name, server) = named
            return ["id": id.uuidString, "name": name, "kind": "klipper", "host": "127.0.0.1", "apiPort": server.port]
        }
        try JSONSerialization.data(withJSONObject: ["formatVersion": 3, "printers": printers])
            .write(to: folder.appendingPathComponent("printers.json"))
        return ["XDG_CONFIG_HOME": config.path, "DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent"]
    }

    private func uploads(_ server: TestServer) -> [TestServer.Event] {
        server.events(named: "request").filter { $0.string("path") == "/server/files/upload" }
    }

    func testTheFileReachesEveryPrinterWholeAndEachPrintsIt() throws {
        let (voron, trident) = (try moonraker(), try moonraker())
        let environment = try savedPrinters(["Voron", "Trident"], on: [voron, trident])
        let file = try TestPrintFiles.make("gear.gcode", in: makeTemporaryDirectory(), bytes: 2_000_000)
        let run = try CommandRun.product("layerwatch", ["print", file.path, "Voron", "Trident", "--yes"], environment: environment)

        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("Voron — Printing “gear.gcode”."), run.stdout)
        XCTAssertTrue(run.stdout.contains("Trident — Printing “gear.gcode”."), run.stdout)
        let hash = try TestPrintFiles.sha256(file)
        for printer in [voron, trident] {
            XCTAssertEqual(printer.waitFor("upload")?.string("sha256"), hash, "each printer has the file's very bytes")
            let status = try CommandRun.product("layerwatch", ["status", "moonraker://127.0.0.1:\(printer.port)", "--json"])
            XCTAssertTrue(status.stdout.contains("\"state\":\"printing\"") && status.stdout.contains("gear.gcode"), status.stdout)
        }
    }

    /// Trident's Klipper takes the file with print=true and never starts it: past --report-timeout
    /// its line says so (not "Printing"), Voron's says it prints, and the exit is 13.
    func testAPrinterThatTookTheFileButNeverReportsPrintingIsNotSaidToPrint() throws {
        let (voron, trident) = (try moonraker(), try moonraker())
        XCTAssertEqual(trident.perform(["cmd": "print_start", "starts": false])?.name, "done")
        let environment = try savedPrinters(["Voron", "Trident"], on: [voron, trident])
        let file = try TestPrintFiles.make("gear.gcode", in: makeTemporaryDirectory(), bytes: 200_000)
        let began = Date()
        let run = try CommandRun.product("layerwatch", ["print", file.path, "Voron", "Trident", "--yes", "--report-timeout", "2"],
                                         environment: environment)

        XCTAssertEqual(run.status, 13, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("Voron — Printing “gear.gcode”."), run.stdout)
        XCTAssertTrue(run.stdout.contains("Trident — The file was sent, but the printer has not reported printing it: check the printer."),
                      run.stdout)
        XCTAssertLessThan(Date().timeIntervalSince(began), 20, "it waited --report-timeout, not the default")
        XCTAssertEqual(trident.waitFor("upload")?.string("sha256"), try TestPrintFiles.sha256(file), "Trident has the file")
        let status = try CommandRun.product("layerwatch", ["status", "moonraker://127.0.0.1:\(trident.port)", "--json"])
        XCTAssertFalse(status.stdout.contains("\"state\":\"printing\""), status.stdout)
    }

    func testItAsksOnATerminalAndSendsNothingWithoutAYes() throws {
        let printer = try moonraker()
        let url = "moonraker://127.0.0.1:\(printer.port)"
        let file = try TestPrintFiles.make("gear.gcode", in: makeTemporaryDirectory(), bytes: 10_000)

        let piped = try CommandRun.product("layerwatch", ["print", file.path, url], input: "y\n")
        XCTAssertEqual(piped.status, 2)
        XCTAssertTrue(piped.stderr.contains("give --yes when standard input is not a terminal. Nothing was sent."), piped.stderr)

        let onATerminal = ["/bin/sh", "-c", "exec /usr/bin/script -qec \"$0 $*\" /dev/null"]
        let declined = try CommandRun.product("layerwatch", ["print", file.path, url], launcher: onATerminal, input: "n\n")
        XCTAssertEqual(declined.status, 12, declined.stdout)
        XCTAssertTrue(declined.stdout.contains("Print “gear.gcode” on 127.0.0.1? [y/N]"), declined.stdout)
        XCTAssertTrue(declined.stdout.contains("Nothing was sent."), declined.stdout)
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertTrue(uploads(printer).isEmpty, "declined: nothing sent")

        let accepted = try CommandRun.product("layerwatch", ["print", file.path, url], launcher: onATerminal, input: "y\n")
        XCTAssertEqual(accepted.status, 0, accepted.stdout)
        XCTAssertTrue(accepted.stdout.contains("127.0.0.1 — Printing “gear.gcode”."), accepted.stdout)
        XCTAssertEqual(uploads(printer).count, 1)
    }

    func testCtrlCCancelsTheUploadNoPrintStartsAndThePartialFileIsDeleted() throws {
        let printer = try moonraker()
        XCTAssertNotNil(printer.perform(["cmd": "upload_rate", "bytes_per_second": 2_000_000]))
        let file = try TestPrintFiles.make("slow.gcode", in: makeTemporaryDirectory(), bytes: 30_000_000)
        let process = Process()
        process.executableURL = CommandRun.productsDirectory.appendingPathComponent("layerwatch")
        process.arguments = ["print", file.path, "moonraker://127.0.0.1:\(printer.port)", "--yes"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        XCTAssertNotNil(printer.waitFor("request", timeout: 20) { $0.string("path") == "/server/files/upload" }, "the upload began")
        Thread.sleep(forTimeInterval: 1)
        kill(process.processIdentifier, SIGINT)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        XCTAssertEqual(process.terminationStatus, 130, text)
        XCTAssertTrue(text.contains("127.0.0.1 — Cancelled: nothing was printed."), text)
        XCTAssertEqual(printer.waitFor("upload")?.fields["complete"] as? Bool, false)
        XCTAssertEqual(printer.waitFor("deleted")?.string("name"), "slow.gcode", "the partial file is deleted")
        let status = try CommandRun.product("layerwatch", ["status", "moonraker://127.0.0.1:\(printer.port)", "--json"])
        XCTAssertTrue(status.stdout.contains("\"state\":\"idle\""), "no print started: \(status.stdout)")
    }

    func testABusyPrinterIsRefusedBeforeAByteWhileTheOthersPrint() throws {
        let (busy, free) = (try moonraker(), try moonraker())
        XCTAssertNotNil(busy.perform(["cmd": "set", "status": ["print_stats": ["state": "paused", "filename": "other.gcode"]]]))
        let environment = try savedPrinters(["Voron", "Trident"], on: [busy, free])
        let file = try TestPrintFiles.make("gear.gcode", in: makeTemporaryDirectory(), bytes: 100_000)
        let run = try CommandRun.product("layerwatch", ["print", file.path, "Voron", "Trident", "--yes"], environment: environment)

        XCTAssertEqual(run.status, 11, run.stdout + run.stderr)
        XCTAssertTrue(run.stdout.contains("Voron — “Voron” is paused: it can take a file when the print has ended."), run.stdout)
        XCTAssertTrue(run.stdout.contains("Trident — Printing “gear.gcode”."), run.stdout)
        XCTAssertTrue(uploads(busy).isEmpty, "the busy printer got no byte")
        XCTAssertEqual(free.waitFor("upload")?.fields["complete"] as? Bool, true)
    }

    /// Layerwatch recording a printer, as the app does: its live status (Moonraker's client polling
    /// the fake) fed to a `PrintRecorder` on the journal at `journal`.
    private func recorder(of id: UUID, named name: String, on server: TestServer, journal: URL) -> JournalStore {
        let store = JournalStore(url: journal)
        let recorder = PrintRecorder(store: store, printer: PrintRecorder.Printer(id: id.uuidString, name: name, camera: nil))
        let monitor = StatusMonitor(endpoint: .moonraker(host: "127.0.0.1", port: server.port, apiKey: nil),
                                    executor: DispatchQueue(label: "recorder-\(name)")) { update in
            if update.connection == .live, let status = update.status { recorder.observe(status) }
        }
        monitor.start()
        addTeardownBlock {
            monitor.stop(waitingUpTo: 5)
            store.close()
        }
        return store
    }

    /// The prints `layerwatch print` started on saved printers are marked in the user's journal
    /// (its own `XDG_DATA_HOME`): Layerwatch recording the Voron while the command ran (it sees the
    /// print begin before the command's word, and marks it at the printer's next report) and
    /// recording the Trident only after it (it finds the print under way) record each as started
    /// from Layerwatch with the file's name, and `history --json` lists them so.
    func testThePrintsItStartsAreMarkedStartedFromLayerwatchInTheJournal() throws {
        let (voron, trident) = (try moonraker(), try moonraker())
        let (voronID, tridentID) = (UUID(), UUID())
        var environment = try savedPrinters(["Voron", "Trident"], on: [voron, trident], ids: [voronID, tridentID])
        environment["XDG_DATA_HOME"] = try makeTemporaryDirectory().path
        let journal = JournalStore.defaultURL(environment: environment)
        let watching = recorder(of: voronID, named: "Voron", on: voron, journal: journal)
        let file = try TestPrintFiles.make("gear.gcode", in: makeTemporaryDirectory(), bytes: 100_000)

        let run = try CommandRun.product("layerwatch", ["print", file.path, "Voron", "Trident", "--yes"], environment: environment)
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertEqual(run.stderr, "", "the journal opened without a word")
        XCTAssertNotNil(voron.perform(["cmd": "set", "status": ["print_stats": ["print_duration": 12.0, "info": ["current_layer": 2]]]]))
        let later = recorder(of: tridentID, named: "Trident", on: trident, journal: journal)

        for (store, id) in [(watching, voronID), (later, tridentID)] {
            let prints = { store.prints(JournalQuery(printerID: id.uuidString)) }
            XCTAssertTrue(waitUntil(timeout: 15) { prints().first?.startedFromLayerwatch == true }, "\(prints())")
            XCTAssertEqual(prints().count, 1)
            let print = try XCTUnwrap(prints().first)
            XCTAssertEqual(print.job, "gear.gcode")
            XCTAssertEqual(print.sentFile, "gear.gcode")
        }
        let history = try CommandRun.product("layerwatch", ["history", "--json"], timeout: 30, environment: environment)
        let listed = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [[String: Any]], history.stderr)
        XCTAssertEqual(Set(listed.map { $0["printer"] as? String ?? "" }), ["Voron", "Trident"])
        XCTAssertEqual(listed.map { $0["startedFromLayerwatch"] as? Bool }, [true, true], history.stdout)
    }

    /// The journal never fails the print: a ruined one is set aside (as `history` does) and said,
    /// one that cannot be made is said; each time the printer prints and the exit is 0.
    func testAJournalThatCannotBeUsedNeverFailsThePrint() throws {
        let printer = try moonraker()
        var environment = try savedPrinters(["Voron"], on: [printer])
        let data = try makeTemporaryDirectory()
        environment["XDG_DATA_HOME"] = data.path
        let journal = JournalStore.defaultURL(environment: environment)
        try FileManager.default.createDirectory(at: journal.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 8192).write(to: journal)
        let file = try TestPrintFiles.make("gear.gcode", in: makeTemporaryDirectory(), bytes: 10_000)

        let ruined = try CommandRun.product("layerwatch", ["print", file.path, "Voron", "--yes"], environment: environment)
        XCTAssertEqual(ruined.status, 0, ruined.stdout + ruined.stderr)
        XCTAssertTrue(ruined.stdout.contains("Voron — Printing “gear.gcode”."), ruined.stdout)
        XCTAssertTrue(ruined.stderr.contains("The print journal could not be read. It was set aside as “\(journal.path).broken-"), ruined.stderr)
        let folder = try FileManager.default.contentsOfDirectory(atPath: journal.deletingLastPathComponent().path)
        XCTAssertTrue(folder.contains { $0.hasPrefix("journal.sqlite3.broken-") }, "\(folder)")

        XCTAssertNotNil(printer.perform(["cmd": "set", "status": ["print_stats": ["state": "standby", "filename": ""]]]))
        let notAFolder = data.appendingPathComponent("file")
        try Data().write(to: notAFolder)
        environment["XDG_DATA_HOME"] = notAFolder.path
        let none = try CommandRun.product("layerwatch", ["print", file.path, "Voron", "--yes"], environment: environment)
        XCTAssertEqual(none.status, 0, none.stdout + none.stderr)
        XCTAssertTrue(none.stdout.contains("Voron — Printing “gear.gcode”."), none.stdout)
        XCTAssertTrue(none.stderr.contains("The print journal “\(notAFolder.path)/layerwatch/journal.sqlite3” could not be opened."), none.stderr)
    }
}
