import Foundation
import TestSupport
import XCTest

/// `layerwatch discover --to 127.0.0.1` as a user runs it against fake printers on this computer:
/// an Elegoo answering `M99999` on UDP 3000, a Flashforge answering on UDP 19000 (the families'
/// usual ports: this is the one test class that binds them), and a Bambu printer's SSDP
/// announcement sent to the command's listener on 127.0.0.1:2021. Nothing is sent to a LAN,
/// broadcast or multicast address.
final class DiscoverCommandTests: XCTestCase {
    private var responders: [LoopbackResponder] = []

    override func tearDown() {
        responders.forEach { $0.stop() }
        responders = []
    }

    /// The fake Elegoo and Flashforge printers on their usual ports, answering only their own ask.
    private func startPrinters(elegooName: String = "Bay 3") throws {
        guard let elegoo = LoopbackResponder(port: 3000, answer: { ask in
            ask == Array("M99999".utf8) ? [DiscoveryAnswers.elegoo(name: elegooName, mainboardID: "000000000001d9e4")] : nil
        }), let flashforge = LoopbackResponder(port: 19000, answer: { ask in
            ask.isEmpty ? [DiscoveryAnswers.flashforge(name: "Adventurer 5M Pro", serial: "SNMOMC9900728")] : nil
        }) else { throw XCTSkip("UDP port 3000 or 19000 is taken on 127.0.0.1") }
        responders = [elegoo, flashforge]
    }

    /// Runs the command while a Bambu printer announces itself to 127.0.0.1:2021 every 200 ms.
    private func discover(_ arguments: [String]) throws -> CommandRun {
        let announcing = AnnouncingBambu()
        defer { announcing.stop() }
        return try CommandRun.product("layerwatch", ["discover", "--to", "127.0.0.1", "--seconds", "2"] + arguments)
    }

    func testListsEveryFamilysPrinterAsJSONAndAsATable() throws {
        try startPrinters()
        let run = try discover(["--json"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        let printers = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]], run.stdout)
        let byFamily = Dictionary(printers.map { ($0["family"] as? String ?? "", $0) }) { first, _ in first }
        XCTAssertEqual(Set(byFamily.keys), ["bambu", "elegoo", "flashforge"], run.stdout)
        XCTAssertEqual(byFamily["elegoo"]?["name"] as? String, "Bay 3")
        XCTAssertEqual(byFamily["elegoo"]?["model"] as? String, "Centauri Carbon")
        XCTAssertEqual(byFamily["elegoo"]?["id"] as? String, "000000000001d9e4")
        XCTAssertEqual(byFamily["elegoo"]?["address"] as? String, "127.0.0.1", "the answer's sender, not its MainboardIP")
        XCTAssertEqual(byFamily["flashforge"]?["id"] as? String, "SNMOMC9900728")
        XCTAssertEqual(byFamily["flashforge"]?["model"] as? String, "Adventurer 5M Pro")
        XCTAssertEqual(byFamily["flashforge"]?["familyName"] as? String, "Flashforge")
        XCTAssertEqual(byFamily["bambu"]?["id"] as? String, "01P00A451601106")
        XCTAssertEqual(byFamily["bambu"]?["model"] as? String, "P1S")
        XCTAssertEqual(byFamily["bambu"]?["name"] as? String, "Shelf P1S")
        XCTAssertEqual(responders.map { $0.asks.count >= 1 }, [true, true], "each asked on its port")

        let table = try discover([])
        XCTAssertEqual(table.status, 0, table.stdout + table.stderr)
        let lines = table.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first?.split(separator: " ").map(String.init), ["FAMILY", "NAME", "MODEL", "ADDRESS", "ID"], table.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("Elegoo") && $0.contains("Bay 3") && $0.contains("Centauri Carbon") && $0.hasSuffix("000000000001d9e4") },
                      table.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("Flashforge") && $0.contains("127.0.0.1") && $0.hasSuffix("SNMOMC9900728") }, table.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("Bambu Lab") && $0.contains("Shelf P1S") && $0.hasSuffix("01P00A451601106") }, table.stdout)
    }

    /// A name with a terminal escape is not printed (the identifier stands in); one with markup is
    /// printed as the text it is.
    func testANameWithAnEscapeIsNotPrinted() throws {
        try startPrinters(elegooName: "\u{1B}]0;owned\u{07}Bay")
        let run = try discover(["--json"])
        XCTAssertFalse(run.stdout.contains("\u{1B}"), run.stdout)
        XCTAssertFalse(run.stdout.contains("owned"), run.stdout)
        XCTAssertTrue(run.stdout.contains("000000000001d9e4"), run.stdout)
    }

    func testAPortHeldByAnotherProgramIsSaidAndTheOthersStillAsked() throws {
        try startPrinters()
        let holder = try XCTUnwrap(LoopbackSender.exclusiveSocket(port: 2021), "UDP port 2021 is taken on 127.0.0.1")
        defer { close(holder.descriptor) }
        let run = try CommandRun.product("layerwatch", ["discover", "--to", "127.0.0.1", "--seconds", "1"])
        XCTAssertEqual(run.status, 0, run.stdout + run.stderr)
        XCTAssertTrue(run.stderr.contains("Another program holds UDP port 2021: Bambu Lab printers announcing themselves there are not heard."),
                      run.stderr)
        XCTAssertTrue(run.stdout.contains("SNMOMC9900728"), run.stdout)
    }

    func testNoPrinterAndBadOptionsAreSaidInWords() throws {
        let none = try CommandRun.product("layerwatch", ["discover", "--to", "127.0.0.1", "--seconds", "1"])
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertEqual(none.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "No printer answered or announced itself within 1 second.")
        let badAddress = try CommandRun.product("layerwatch", ["discover", "--to", "printer.local"])
        XCTAssertNotEqual(badAddress.status, 0)
        XCTAssertTrue(badAddress.stderr.contains("--to takes an IPv4 address"), badAddress.stderr)
        let badSeconds = try CommandRun.product("layerwatch", ["discover", "--seconds", "0"])
        XCTAssertNotEqual(badSeconds.status, 0)
        XCTAssertTrue(badSeconds.stderr.contains("--seconds takes a number of seconds from 1 to 600."), badSeconds.stderr)
    }
}

/// A Bambu P1S announcing itself to 127.0.0.1:2021 every 200 ms until stopped.
private final class AnnouncingBambu: @unchecked Sendable {
    private let thread: Thread

    init() {
        thread = Thread {
            let sender = LoopbackSender()
            while !Thread.current.isCancelled {
                sender.send(SSDPAnnouncement.bytes(serial: "01P00A451601106", name: "Shelf P1S"), to: 2021)
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
        thread.start()
    }

    func stop() {
        thread.cancel()
        while !thread.isFinished { usleep(10_000) }
    }
}
