import Foundation
import JournalKit
@testable import LayerwatchApp
import PrinterKit
import TestSupport
import XCTest

/// A print Layerwatch started, as the upload code tells the journal (`PrintJournal.expectPrint`),
/// against the whole app and two Moonraker fakes (Tests/Servers/moonraker_server.py): the print of
/// the file sent that begins on that printer is marked started from Layerwatch; the same file
/// printing on the other printer is not.
final class JournalStartedFromLayerwatchTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testThePrintOfTheFileSentIsMarkedOnThatPrinterOnly() throws {
        let voronPeer = try TestServer(script: "moonraker_server.py"), enderPeer = try TestServer(script: "moonraker_server.py")
        addTeardownBlock {
            voronPeer.stop()
            enderPeer.stop()
        }
        let voron = Printer(name: "Voron", kind: .klipper, host: "127.0.0.1", apiPort: voronPeer.port, cameras: [], notifies: false)
        let ender = Printer(name: "Ender", kind: .klipper, host: "127.0.0.1", apiPort: enderPeer.port, cameras: [], notifies: false)
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(printers: [voron, ender], backgroundNoticeShown: true))
        try MainActor.assumeIsolated {
            let (app, _) = try startApp(in: directory)
            defer { app.quit() }
            let journal = try XCTUnwrap(app.journal)
            XCTAssertTrue(iterateMainContext(timeout: 15) { [voron, ender].allSatisfy { app.statusHub.latest($0.id)?.connection == .live } })

            journal.expectPrint(printerID: voron.id, file: "gear.gcode")
            for peer in [enderPeer, voronPeer] {
                peer.send(["cmd": "set", "status": ["print_stats": ["state": "printing", "filename": "gear.gcode"]]])
            }
            XCTAssertTrue(iterateMainContext(timeout: 10) { journal.store.prints(JournalQuery()).count == 2 }, "both prints begun")
            let prints = journal.store.prints(JournalQuery())
            XCTAssertEqual(prints.first { $0.printerID == voron.id.uuidString }?.startedFromLayerwatch, true)
            XCTAssertEqual(prints.first { $0.printerID == voron.id.uuidString }?.sentFile, "gear.gcode")
            XCTAssertEqual(prints.first { $0.printerID == ender.id.uuidString }?.startedFromLayerwatch, false, "the other printer's is not")
        }
    }
}
