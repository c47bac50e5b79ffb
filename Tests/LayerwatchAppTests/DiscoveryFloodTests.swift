import CGtk
import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import Synchronization
import TestSupport
import XCTest

/// The Add Printer dialog while a host floods the discovery port with fake printers: the main loop
/// keeps answering and the list stays capped. Every datagram goes to the app's loopback port.
final class DiscoveryFloodTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testTheMainLoopKeepsAnsweringWhileTenThousandFakePrintersFloodTheDialog() throws {
        let directory = try makeTemporaryDirectory()
        try withPrinterDialog(in: directory) { app, window, dialog in
            let port = try discoveryPort(of: app, closing: dialog)
            defer { gtk_window_destroy(gcast(dialog.window)) }
            XCTAssertTrue(iterateMainContext(timeout: 5) { Bool(gboolean: gtk_widget_get_mapped(dialog.window)) })
            let memoryBefore = ProcessMemory.residentBytes ?? 0

            var ticks: [TimeInterval] = []
            let heartbeat = RepeatingTimer(milliseconds: 50) { ticks.append(ProcessInfo.processInfo.systemUptime) }
            let cpuBefore = Self.threadCPUSeconds()
            let wallBefore = ProcessInfo.processInfo.systemUptime
            let flood = Flood(port: port, count: 10_000, perSecond: 2_000)
            XCTAssertTrue(iterateMainContext(timeout: 30) { flood.isFinished }, "the flood ends")
            let settled = ProcessInfo.processInfo.systemUptime + 1
            _ = iterateMainContext(timeout: 5) { ProcessInfo.processInfo.systemUptime >= settled }
            heartbeat.cancel()
            let cpu = Self.threadCPUSeconds() - cpuBefore
            let wall = ProcessInfo.processInfo.systemUptime - wallBefore

            // What the flood costs the main loop is its thread's CPU time, which a busy machine does
            // not inflate (a wall-clock gap would measure the machine's other work too): coalesced,
            // the updates take a small share; one list rebuild per datagram kept the loop saturated.
            XCTAssertLessThan(cpu, 0.6 * wall, "the main thread's CPU during the flood: \(cpu) s of \(wall) s")
            let largestGap = zip(ticks.dropFirst(), ticks).map { $0 - $1 }.max() ?? .infinity
            XCTAssertGreaterThan(ticks.count, 10, "the heartbeat ran through the flood")
            XCTAssertLessThan(largestGap, 5, "the main loop never stalled (largest gap \(largestGap) s, flood took \(flood.duration) s)")
            XCTAssertEqual(dialog.discoveredPrinters.count, 64, "the list is capped")
            XCTAssertTrue(dialog.discoveredPrinters.contains { $0.serial == Flood.serial(9_999) }, "and shows the latest printers")
            var rows = 0
            var child = gtk_widget_get_first_child(dialog.discovered.widget)
            while let row = child {
                rows += 1
                child = gtk_widget_get_next_sibling(row)
            }
            XCTAssertEqual(rows, 64, "one row each")
            let growth = (ProcessMemory.residentBytes ?? 0) - memoryBefore
            XCTAssertLessThan(growth, 64 << 20, "memory grew by \(growth >> 20) MiB")
        }
    }

    /// The CPU time the calling thread has used, in seconds.
    private static func threadCPUSeconds() -> TimeInterval {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return TimeInterval(now.tv_sec) + TimeInterval(now.tv_nsec) / 1e9
    }

    func testAnUpdateTouchesOnlyTheRowsThatChanged() throws {
        try MainActor.assumeIsolated {
            let list = DiscoveredPrinterList()
            let garage = DiscoveredPrinter(serial: "01P00A123456789", address: "127.0.0.1", modelCode: "C12", name: "Garage")
            let attic = DiscoveredPrinter(serial: "00M09A350100321", address: "127.0.0.1", modelCode: "BL-P001", name: "Attic")
            list.show([garage])
            let garageRow = try XCTUnwrap(list.row(serial: garage.serial))
            let held = GObjectRef(retaining: garageRow) // Still valid to compare with if it were replaced.
            defer { withExtendedLifetime(held) {} }
            let title = try XCTUnwrap(titleLabel(of: garageRow))
            list.show([attic, garage])
            XCTAssertEqual(list.row(serial: garage.serial), garageRow, "an unchanged printer keeps its row")
            XCTAssertEqual(titleLabel(of: garageRow), title, "and its labels")
            XCTAssertEqual(gtk_list_box_row_get_index(gcast(garageRow)), 1, "moved below the new one")
            XCTAssertEqual(gtk_list_box_row_get_index(gcast(try XCTUnwrap(list.row(serial: attic.serial)))), 0)

            var renamed = garage
            renamed.name = "Garage P1S"
            list.show([renamed])
            let renamedRow = try XCTUnwrap(list.row(serial: garage.serial))
            XCTAssertEqual(renamedRow, garageRow, "a renamed printer keeps its row")
            XCTAssertEqual(titleLabel(of: renamedRow).map { String(cString: gtk_label_get_text(gcast($0))) }, "Garage P1S")
            XCTAssertNil(list.row(serial: attic.serial), "a printer that left loses its row")
            XCTAssertNil(gtk_widget_get_next_sibling(renamedRow), "it is the only row")

            var picked: DiscoveredPrinter?
            list.onPick = { picked = $0 }
            adw_action_row_activate(gcast(renamedRow))
            XCTAssertEqual(picked, renamed, "activating the row picks the printer as shown now")

            list.show([])
            XCTAssertNil(list.row(serial: garage.serial))
            XCTAssertEqual(titleLabel(of: try XCTUnwrap(gtk_widget_get_first_child(list.widget))).map { String(cString: gtk_label_get_text(gcast($0))) },
                           "Looking for printers…", "an empty list says it is looking")
        }
    }
}

/// The title label of an action row (the label with the "title" style class inside it).
@MainActor
func titleLabel(of row: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget>? {
    descendants(of: row).first { widget in
        String(cString: gtk_widget_get_css_name(widget)) == "label" && Bool(gboolean: gtk_widget_has_css_class(widget, "title"))
    }
}

/// Every widget inside `widget`, depth first.
@MainActor
func descendants(of widget: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
    var found: [UnsafeMutablePointer<GtkWidget>] = []
    var child = gtk_widget_get_first_child(widget)
    while let current = child {
        found.append(current)
        found += descendants(of: current)
        child = gtk_widget_get_next_sibling(current)
    }
    return found
}

/// A background thread sending `count` announcements of distinct fake printers to 127.0.0.1:`port`
/// at about `perSecond`; it stops after 20 s whatever it has sent.
private final class Flood: @unchecked Sendable {
    private let done = Atomic<Bool>(false)
    private let started = Date()
    private let finishedAt = Mutex<Date?>(nil)

    init(port: UInt16, count: Int, perSecond: Int) {
        let burst = max(1, perSecond / 100)
        Thread.detachNewThread { [self] in
            let sender = LoopbackSender()
            for index in 0..<count where Date().timeIntervalSince(started) < 20 {
                let notify = "NOTIFY * HTTP/1.1\r\nHost: 239.255.255.250:1990\r\nLocation: 127.0.0.1\r\n"
                    + "NT: urn:bambulab-com:device:3dprinter:1\r\nNTS: ssdp:alive\r\nUSN: \(Self.serial(index))\r\n"
                    + "DevModel.bambu.com: C12\r\nDevName.bambu.com: Fake printer \(index)\r\nDevConnect.bambu.com: lan\r\n\r\n"
                sender.send(Array(notify.utf8), to: port)
                if index % burst == burst - 1 { Thread.sleep(forTimeInterval: 0.01) }
            }
            finishedAt.withLock { $0 = Date() }
            done.store(true, ordering: .releasing)
        }
    }

    static func serial(_ index: Int) -> String {
        String(format: "FAKE%08d", index)
    }

    var isFinished: Bool { done.load(ordering: .acquiring) }

    var duration: TimeInterval {
        finishedAt.withLock { $0 }.map { $0.timeIntervalSince(started) } ?? .infinity
    }
}
