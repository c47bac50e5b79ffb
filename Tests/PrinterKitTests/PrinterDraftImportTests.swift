import Foundation
import PrinterKit
import StatusKit
import StreamKit
import XCTest

/// The add/edit dialog's draft for Klipper and OctoPrint printers and go2rtc's streams: the API's
/// host, port and key checked field by field, one printer with every chosen camera (go2rtc: a plain
/// camera per stream), and what an edited printer keeps.
final class PrinterDraftImportTests: XCTestCase {
    private let x1c = PrinterCamera(name: "x1c", url: "rtsp://10.0.0.7:8554/x1c")
    private let door = PrinterCamera(name: "door cam", url: "rtsp://10.0.0.7:8554/door%20cam")

    private let nozzleCamera = PrinterCamera(ImportedCamera(name: "Nozzle", service: "mjpegstreamer-adaptive",
                                                            url: "http://10.0.0.5/webcam/?action=stream", rotation: 90, flipHorizontal: true))
    private let bedCamera = PrinterCamera(ImportedCamera(name: "Bed", service: "mjpegstreamer", url: "http://10.0.0.5/webcam2/?action=stream",
                                                         flipVertical: true))

    func testMessagesPerField() {
        let cases: [(PrinterDraft, [PrinterDraft.Field: String])] = [
            (PrinterDraft(kind: .klipper, name: "Voron", host: " ", cameras: [nozzleCamera]),
             [.host: "Enter the address of the computer running Klipper (the one you open Mainsail or Fluidd at)."]),
            (PrinterDraft(kind: .octoprint, name: "Prusa", host: "", accessCode: "0123456789ABCDEF", cameras: [nozzleCamera]),
             [.host: "Enter the address of the computer running OctoPrint (the one you open OctoPrint at)."]),
            (PrinterDraft(kind: .klipper, name: "Voron", host: "voron one", cameras: [nozzleCamera]),
             [.host: "\"voron one\" is not an IP address or host name."]),
            (PrinterDraft(kind: .klipper, name: "Voron", host: "10.0.0.5", apiPort: "71250", cameras: [nozzleCamera]),
             [.apiPort: "A port is a number from 1 to 65535; leave it empty for 7125."]),
            (PrinterDraft(kind: .octoprint, name: "Prusa", host: "10.0.0.5", apiPort: "http", accessCode: "0123456789ABCDEF", cameras: [nozzleCamera]),
             [.apiPort: "A port is a number from 1 to 65535; leave it empty for 80."]),
            (PrinterDraft(kind: .octoprint, name: "Prusa", host: "10.0.0.5", cameras: [nozzleCamera]),
             [.accessCode: "Enter OctoPrint's API key (in OctoPrint: Settings → Application Keys)."]),
            (PrinterDraft(kind: .klipper, name: "Voron", host: "10.0.0.5", accessCode: "s3cret key\r\nX-Evil: 1", cameras: [nozzleCamera]),
             [.accessCode: "An API key has only letters, digits and punctuation, no spaces: copy it again."]),
            (PrinterDraft(kind: .klipper, name: "Voron", host: "10.0.0.5", cameras: [nozzleCamera, PrinterCamera(name: "Old", url: "/home/me/cam.mp4")]),
             [.cameras: "“Old”: This is not a network camera: a printer's camera is an rtsp://, rtsps://, http://, https:// or webrtc: address."]),
            (PrinterDraft(kind: .klipper, name: "Voron", host: "10.0.0.5", cameras: [PrinterCamera(url: "ftp://10.0.0.5/cam")]),
             [.url: SourceError.unsupportedScheme("ftp").description]),
            (PrinterDraft(kind: .octoprint, name: "", host: "", accessCode: ""),
             [.name: "Enter a name for this printer, for example “X1C workshop”.",
              .host: "Enter the address of the computer running OctoPrint (the one you open OctoPrint at).",
              .accessCode: "Enter OctoPrint's API key (in OctoPrint: Settings → Application Keys)."]),
        ]
        for (draft, expected) in cases {
            switch draft.printers() {
            case .success(let printers):
                XCTFail("accepted \(printers), expected \(expected)")
            case .failure(let problems):
                XCTAssertEqual(problems.messages, expected)
                for message in problems.messages.values {
                    XCTAssertFalse(message.contains("s3cret") || message.contains("0123456789ABCDEF"), message)
                }
            }
        }
    }

    /// A Klipper or OctoPrint printer is watched without a picture when it has no camera (none
    /// found, or an empty row left); a camera by URL still needs its URL.
    func testAKlipperOrOctoPrintPrinterMayHaveNoCamera() throws {
        let id = UUID()
        let klipper = try PrinterDraft(id: id, kind: .klipper, name: "Voron", host: "10.0.0.5", cameras: [PrinterCamera(url: "  ")]).validate().get()
        XCTAssertEqual(klipper, Printer(id: id, name: "Voron", kind: .klipper, host: "10.0.0.5"))
        XCTAssertEqual(klipper.cameras, [])
        XCTAssertEqual(klipper.statusEndpoint, .moonraker(host: "10.0.0.5", port: StatusEndpoint.moonrakerPort, apiKey: nil))
        let octoprint = try PrinterDraft(kind: .octoprint, name: "Prusa", host: "10.0.0.6", accessCode: "OCTOKEY123456").validate().get()
        XCTAssertEqual(octoprint.cameras, [])
        XCTAssertEqual(octoprint.statusEndpoint, .octoprint(host: "10.0.0.6", port: StatusEndpoint.octoprintPort, apiKey: "OCTOKEY123456"))
        guard case .failure(let problems) = PrinterDraft(kind: .generic, name: "Door").validate() else {
            return XCTFail("a camera by URL without its URL was accepted")
        }
        XCTAssertNotNil(problems[.url])
        XCTAssertEqual(try PrinterDraft(kind: .bambuJPEG(nil), name: "A1", host: "10.0.0.3", accessCode: "12345678").validate().get().cameras.count, 1,
                       "a Bambu printer keeps its own camera")
    }

    func testTheChosenCamerasAreOnePrinterEachWithItsMounting() throws {
        let id = UUID()
        let draft = PrinterDraft(id: id, kind: .klipper, name: " Voron ", host: " 10.0.0.5 ", apiPort: " 7130 ",
                                 accessCode: " 0123456789abcdef0123456789abcdef ",
                                 cameras: [nozzleCamera, PrinterCamera(url: " "), bedCamera])
        let printers = try draft.printers().get()
        XCTAssertEqual(printers.count, 1, "one printer, one status connection")
        XCTAssertEqual(printers[0], Printer(id: id, name: "Voron", kind: .klipper, host: "10.0.0.5", apiPort: 7130,
                                            accessCode: "0123456789abcdef0123456789abcdef",
                                            cameras: [draft.cameras[0], draft.cameras[2]]),
                       "the empty row is left out; each camera keeps its name, URL and mounting")
        XCTAssertEqual(printers[0].cameras.map(\.name), ["Nozzle", "Bed"])
        XCTAssertEqual(printers[0].cameras.map(\.rotation), [90, 0])
        XCTAssertEqual(printers[0].cameras.map(\.flipVertical), [false, true])
        XCTAssertEqual(printers[0].statusEndpoint, .moonraker(host: "10.0.0.5", port: 7130, apiKey: "0123456789abcdef0123456789abcdef"))
        XCTAssertEqual(printers[0].name(with: printers[0].cameras[1]), "Voron — Bed")
    }

    func testBambuKeepsItsOwnCameraFirstAndTakesMore() throws {
        let extra = PrinterCamera(name: "Door", url: "rtsp://10.0.0.9/door")
        let printer = try PrinterDraft(kind: .bambuRTSPS(.x1c), name: "X1C", host: "10.0.0.3", accessCode: "12345678",
                                       cameras: [extra, PrinterCamera(url: "")]).validate().get()
        XCTAssertEqual(printer.cameras.count, 2)
        XCTAssertNil(printer.cameras[0].url, "its own camera, first")
        XCTAssertEqual(printer.cameras[1], extra)
        XCTAssertEqual(try printer.source(of: printer.cameras[0]).description, "rtsps://bblp:***@10.0.0.3:322/streaming/live/1")
        XCTAssertEqual(try printer.source(of: printer.cameras[1]).description, "rtsp://10.0.0.9/door")
        XCTAssertEqual(printer.cameras.enumerated().map { $1.title(at: $0) }, ["Camera 1", "Door"])
    }

    func testOneChosenCameraKeepsThePrintersNameAndTheUsualPortIsNotStored() throws {
        let printers = try PrinterDraft(kind: .octoprint, name: "Prusa", host: "octopi.local", apiPort: "80",
                                        accessCode: "OCTOKEY123456", cameras: [bedCamera]).printers().get()
        XCTAssertEqual(printers.map(\.name), ["Prusa"])
        XCTAssertNil(printers[0].apiPort)
        XCTAssertEqual(printers[0].statusEndpoint, .octoprint(host: "octopi.local", port: 80, apiKey: "OCTOKEY123456"))
    }

    func testMoonrakerNeedsNoKey() throws {
        let printer = try PrinterDraft(kind: .klipper, name: "Voron", host: "fd00::5", cameras: [nozzleCamera]).validate().get()
        XCTAssertEqual(printer.accessCode, "")
        XCTAssertEqual(printer.statusEndpoint, .moonraker(host: "fd00::5", port: 7125, apiKey: nil))
        XCTAssertEqual(try PrinterDraft(kind: .klipper, host: "10.0.0.5", accessCode: "k3y").statusEndpoint().get(),
                       .moonraker(host: "10.0.0.5", port: 7125, apiKey: "k3y"))
        XCTAssertEqual(try PrinterDraft(kind: .octoprint, host: "10.0.0.5", apiPort: "5000", accessCode: "OCTOKEY123456")
                        .statusEndpoint().get(),
                       .octoprint(host: "10.0.0.5", port: 5000, apiKey: "OCTOKEY123456"))
    }

    func testEditingKeepsMountingNotificationsAndAPIPort() throws {
        let klipper = Printer(name: "Voron", kind: .klipper, host: "10.0.0.5", apiPort: 7130, accessCode: "k3yk3yk3y", cameras: [PrinterCamera(url: "http://10.0.0.5/webcam/?action=stream", rotation: 180, flipHorizontal: true, flipVertical: true)], notifies: false)
        let octoprint = Printer(name: "Prusa", kind: .octoprint, host: "octopi.local", accessCode: "OCTOKEY123456", cameras: [PrinterCamera(url: "http://octopi.local/webcam/?action=stream", rotation: 270)], notifies: false)
        var mounted = Fixtures.webcam
        mounted.cameras[0].rotation = 90
        mounted.notifies = false
        var bambu = Fixtures.x1c
        bambu.cameras[0].flipVertical = true
        bambu.notifies = false
        bambu.apiPort = 18883
        for printer in [klipper, octoprint, mounted, bambu] {
            XCTAssertEqual(try PrinterDraft(printer).printers().get(), [printer])
        }

        var renamed = PrinterDraft(klipper)
        renamed.name = "Voron 2.4"
        XCTAssertEqual(try renamed.validate().get().name, "Voron 2.4")
        XCTAssertEqual(try renamed.validate().get().cameras, klipper.cameras)

        // Adding a camera the host lists: the edited printer's camera, switch and id kept.
        renamed.cameras.append(nozzleCamera)
        let chosen = try renamed.validate().get()
        XCTAssertEqual(chosen, Printer(id: klipper.id, name: "Voron 2.4", kind: .klipper, host: "10.0.0.5", apiPort: 7130,
                                       accessCode: "k3yk3yk3y", cameras: klipper.cameras + [nozzleCamera], notifies: false))
    }

    func testGo2RTCMessagesPerFieldNeedNoName() {
        let cases: [(PrinterDraft, [PrinterDraft.Field: String])] = [
            (PrinterDraft(kind: .generic, isGo2RTC: true, host: " ", cameras: [x1c]),
             [.host: "Enter the address of the computer running go2rtc (the one you open its web page at)."]),
            (PrinterDraft(kind: .generic, isGo2RTC: true, host: "10.0.0.7", apiPort: "99999", cameras: [x1c]),
             [.apiPort: "A port is a number from 1 to 65535; leave it empty for 1984."]),
            (PrinterDraft(kind: .generic, isGo2RTC: true, host: "10.0.0.7", accessCode: "s3cret", cameras: [x1c]),
             [.user: "Enter the username too (under api: in go2rtc.yaml), or leave both empty."]),
            (PrinterDraft(kind: .generic, isGo2RTC: true, host: "10.0.0.7", user: "farm:s3cret", cameras: [x1c]),
             [.user: "A username has no colon and no control characters: copy it again from go2rtc.yaml."]),
            (PrinterDraft(kind: .generic, isGo2RTC: true, name: "Farm", host: "10.0.0.7"),
             [.cameras: "Check at least one stream: “Find Cameras” lists the ones go2rtc has."]),
        ]
        for (draft, expected) in cases {
            XCTAssertThrowsError(try draft.printers().get()) { error in
                XCTAssertEqual((error as? PrinterDraft.Problems)?.messages, expected)
            }
        }
        XCTAssertThrowsError(try PrinterDraft(kind: .generic, isGo2RTC: true, host: "").go2rtcImport().get())
    }

    func testEachChosenStreamIsAnRTSPCameraNamedAfterItWithoutThePassword() throws {
        let id = UUID()
        let draft = PrinterDraft(id: id, kind: .klipper, isGo2RTC: true, host: " 10.0.0.7 ", user: " farm ", accessCode: "Gr33nH0use",
                                 cameras: [door, x1c])
        XCTAssertEqual(try draft.go2rtcImport().get(), Go2RTCImport(host: "10.0.0.7", user: "farm", password: "Gr33nH0use"))
        XCTAssertEqual(try draft.go2rtcImport().get().description, "go2rtc://farm:***@10.0.0.7:1984")
        let printers = try draft.printers().get()
        XCTAssertEqual(printers, [Printer(id: id, name: "door cam", kind: .generic, cameras: [PrinterCamera(id: printers[0].cameras[0].id, url: "rtsp://10.0.0.7:8554/door%20cam")]),
                                  Printer(id: printers[1].id, name: "x1c", kind: .generic, cameras: [PrinterCamera(id: printers[1].cameras[0].id, url: "rtsp://10.0.0.7:8554/x1c")])],
                       "generic cameras whatever the kind, the first with the draft's id, no API password kept")
        XCTAssertNotEqual(printers[1].id, id)

        var named = PrinterDraft(kind: .generic, isGo2RTC: true, name: "Farm", host: "10.0.0.7", apiPort: "1985", cameras: [door, x1c])
        XCTAssertEqual(try named.printers().get().map(\.name), ["Farm — door cam", "Farm — x1c"])
        XCTAssertEqual(try named.go2rtcImport().get(), Go2RTCImport(host: "10.0.0.7", port: 1985))
        named.cameras = [x1c]
        XCTAssertEqual(try named.printers().get().map(\.name), ["Farm"], "one stream: the typed name")
    }
}
