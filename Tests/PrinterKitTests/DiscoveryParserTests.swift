import PrinterKit
import XCTest

/// Reading Bambu SSDP announcements, and ignoring everything else that reaches the discovery ports.
final class DiscoveryParserTests: XCTestCase {
    private static let printerType = "urn:bambulab-com:device:3dprinter:1"

    /// An announcement as a printer sends it (fields from PROTOCOLS.md §3), CRLF unless told.
    private func announcement(serial: String = "00M09A350100321", location: String? = "192.0.2.21",
                              model: String = "BL-P001", name: String = "Workshop X1C",
                              connect: String = "lan", nts: String = "ssdp:alive", extra: [String] = [],
                              startLine: String = "NOTIFY * HTTP/1.1", target: String = "NT: \(printerType)",
                              newline: String = "\r\n") -> [UInt8] {
        var lines = [startLine, "Host: 239.255.255.250:1990", "Server: UPnP/1.0"]
        if let location { lines.append("Location: \(location)") }
        lines += [target, "NTS: \(nts)", "USN: \(serial)", "Cache-Control: max-age=1800",
                  "DevModel.bambu.com: \(model)", "DevName.bambu.com: \(name)", "DevSignal.bambu.com: -44",
                  "DevConnect.bambu.com: \(connect)", "DevBind.bambu.com: free",
                  "Devseclink.bambu.com: secure", "DevVersion.bambu.com: 01.08.02.00"]
        lines += extra
        return Array((lines.joined(separator: newline) + newline + newline).utf8)
    }

    private func parse(_ bytes: [UInt8], sender: String = "192.0.2.200") -> DiscoveredPrinter? {
        DiscoveryParser.parse(bytes, sender: sender)
    }

    func testReadsEveryFieldOfAnX1CAnnouncement() throws {
        let printer = try XCTUnwrap(parse(announcement()))
        XCTAssertEqual(printer, DiscoveredPrinter(serial: "00M09A350100321", address: "192.0.2.200", modelCode: "BL-P001",
                                                  name: "Workshop X1C", connection: .lan, bindState: "free",
                                                  firmwareVersion: "01.08.02.00", signal: "-44"))
        XCTAssertEqual(printer.model, .x1c)
        XCTAssertEqual(printer.modelName, "X1 Carbon")
        XCTAssertEqual(printer.displayName, "Workshop X1C")
    }

    /// A name is shown in our sentences ("Add “…”"): a right-to-left override or an isolate in it
    /// would reorder the words after it, so they are taken out.
    func testBidiControlsAreTakenOutOfTheName() throws {
        let printer = try XCTUnwrap(parse(announcement(name: "\u{202E}Workshop\u{2066} X1C\u{202C}")))
        XCTAssertEqual(printer.name, "Workshop X1C")
    }

    func testNamesTheModelsOfP1SA1MiniAndH2D() throws {
        let cases: [(serial: String, code: String, connect: String, model: BambuModel, name: String, connection: DiscoveredPrinter.Connection)] = [
            ("01P00A451601106", "C12", "cloud", .p1s, "P1S", .cloud),
            ("0300AA2A1500123", "N1", "lan", .a1mini, "A1 mini", .lan),
            ("0948AD532200456", "O1D", "LAN", .h2d, "H2D", .lan),
        ]
        for entry in cases {
            let printer = try XCTUnwrap(parse(announcement(serial: entry.serial, model: entry.code, connect: entry.connect)), entry.code)
            XCTAssertEqual(printer.serial, entry.serial)
            XCTAssertEqual(printer.model, entry.model)
            XCTAssertEqual(printer.modelName, entry.name)
            XCTAssertEqual(printer.connection, entry.connection)
        }
    }

    func testAcceptsLFOnlyLinesAndAnyHeaderCase() throws {
        let lf = try XCTUnwrap(parse(announcement(newline: "\n")))
        XCTAssertEqual(lf, parse(announcement()))
        let shouting = Array("""
        notify * http/1.1\r
        LOCATION:192.0.2.30\r
        nt:   urn:bambulab-com:device:3dprinter:1\r
        usn: 01P00A451601107\r
        DEVNAME.BAMBU.COM: Garage\r
        devmodel.bambu.com: C11\r
        \r

        """.utf8)
        let printer = try XCTUnwrap(parse(shouting))
        XCTAssertEqual(printer.address, "192.0.2.200")
        XCTAssertEqual(printer.name, "Garage")
        XCTAssertEqual(printer.model, .p1p)
        XCTAssertNil(printer.connection)
        XCTAssertNil(printer.signal)
    }

    func testTheAddressIsTheSendersWhateverTheLocationSays() {
        XCTAssertEqual(parse(announcement(location: "192.0.2.21"))?.address, "192.0.2.200", "Location names another host")
        XCTAssertEqual(parse(announcement(location: nil))?.address, "192.0.2.200")
        XCTAssertEqual(parse(announcement(location: "http://192.0.2.21:80/desc.xml"))?.address, "192.0.2.200")
        XCTAssertEqual(parse(announcement(location: "300.1.2.3"))?.address, "192.0.2.200")
        XCTAssertNil(parse(announcement(), sender: "not an address"))
        XCTAssertNil(parse(announcement(), sender: ""))
    }

    func testKeepsAnUnknownModelCode() throws {
        let printer = try XCTUnwrap(parse(announcement(model: "Q9X")))
        XCTAssertNil(printer.model)
        XCTAssertEqual(printer.modelCode, "Q9X")
        XCTAssertEqual(printer.modelName, "Q9X")
        XCTAssertNil(parse(announcement(connect: "mesh"))?.connection)
    }

    func testAcceptsASearchResponseCarryingST() {
        let response = announcement(startLine: "HTTP/1.1 200 OK", target: "ST: \(Self.printerType)")
        XCTAssertEqual(parse(response)?.serial, "00M09A350100321")
        XCTAssertNil(parse(announcement(target: "ST: \(Self.printerType)")), "a NOTIFY names its type in NT")
        XCTAssertNil(parse(announcement(startLine: "HTTP/1.1 200 OK")), "a response names its type in ST")
    }

    func testIgnoresOtherDevicesAndMessages() {
        XCTAssertNil(parse(announcement(target: "NT: upnp:rootdevice")))
        XCTAssertNil(parse(announcement(target: "NT: urn:schemas-upnp-org:device:MediaRenderer:1")))
        XCTAssertNil(parse(announcement(target: "NT: urn:bambulab-com:device:3dprinter:2")))
        XCTAssertNil(parse(announcement(startLine: "M-SEARCH * HTTP/1.1", target: "ST: \(Self.printerType)")),
                     "Bambu Studio's search is not a printer")
        XCTAssertNil(parse(announcement(nts: "ssdp:byebye")), "a printer leaving is not a printer to list")
        XCTAssertNil(parse(announcement(serial: "01P 00A45")))
        XCTAssertNil(parse(announcement(serial: "../../etc")))
    }

    func testIgnoresGarbage() {
        let garbage: [[UInt8]] = [
            [], [0], Array("hello".utf8), Array("{\"print\":{\"command\":\"push_status\"}}".utf8),
            Array("NOTIFY * HTTP/1.1".utf8), Array("\r\n\r\n".utf8), (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37) },
        ]
        for bytes in garbage {
            XCTAssertNil(parse(bytes), "\(bytes.prefix(16))")
        }
    }

    func testIgnoresTruncatedAnnouncements() {
        let full = announcement()
        let usn = full.firstRange(of: Array("USN:".utf8))!.lowerBound
        for length in 0..<full.count {
            let printer = parse(Array(full.prefix(length)))
            if length <= usn + 5 {
                XCTAssertNil(printer, "cut at \(length)")
            } else if let printer {
                XCTAssertTrue("00M09A350100321".hasPrefix(printer.serial), "cut at \(length)")
            }
        }
    }

    func testIgnoresOversizedAndNonUTF8Datagrams() throws {
        let base = announcement()
        let padding = DiscoveryParser.maximumDatagramSize - base.count
        let atLimit = announcement(extra: ["X-Pad: " + String(repeating: "a", count: padding - 9)])
        XCTAssertEqual(atLimit.count, DiscoveryParser.maximumDatagramSize)
        XCTAssertNotNil(parse(atLimit))
        XCTAssertNil(parse(atLimit + [0x20]))
        XCTAssertNil(parse(announcement(extra: ["X-Pad: " + String(repeating: "a", count: 60_000)])))

        var invalid = base
        invalid[invalid.firstRange(of: Array("Workshop".utf8))!.lowerBound] = 0xFF
        XCTAssertNil(parse(invalid))
        XCTAssertNil(try XCTUnwrap(parse(announcement(name: "Bad\u{7}Name"))).name, "control characters are not shown")
    }
}
