import Foundation
@testable import StatusKit
import StreamKit
import XCTest

/// The protocols' JSON read into a status: Bambu's merged partial reports and packed temperatures,
/// Moonraker's and OctoPrint's documented answers, the camera lists' URL mapping, and status URLs.
final class StatusParsingTests: XCTestCase {
    private func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    func testPartialBambuReportsMergeIntoTheFullState() throws {
        var report = BambuReport()
        XCTAssertTrue(report.merge(payload: try json("""
            {"print":{"command":"push_status","gcode_state":"RUNNING","mc_percent":10,"mc_remaining_time":90,
             "layer_num":3,"total_layer_num":200,"subtask_name":"Benchy","task_id":"712345678","nozzle_temper":219.4,"nozzle_target_temper":220,
             "bed_temper":55,"bed_target_temper":55,"chamber_temper":31,
             "lights_report":[{"node":"chamber_light","mode":"off"},{"node":"work_light","mode":"flashing"}]}}
            """)))
        XCTAssertTrue(report.merge(payload: try json(#"{"print":{"command":"push_status","mc_percent":11,"layer_num":4}}"#)))
        XCTAssertTrue(report.merge(payload: try json(#"{"print":{"lights_report":[{"node":"chamber_light","mode":"on"}]}}"#)))
        XCTAssertFalse(report.merge(payload: try json(#"{"system":{"command":"ledctrl","result":"success"}}"#)))
        XCTAssertFalse(report.merge(payload: try json(#"{"print":{"command":"project_file","mc_percent":99}}"#)))
        let status = report.status
        XCTAssertEqual(status.state, .printing)
        XCTAssertEqual(status.job, "Benchy")
        XCTAssertEqual(status.jobID, "712345678", "the printer's id of the print, which the journal knows it by")
        XCTAssertEqual(status.progress, 11)
        XCTAssertEqual(status.layer, 4)
        XCTAssertEqual(status.totalLayers, 200)
        XCTAssertEqual(status.timeLeft, 90 * 60)
        XCTAssertEqual(status.nozzles, [.init(current: 219.4, target: 220)!])
        XCTAssertEqual(status.bed, .init(current: 55, target: 55))
        XCTAssertEqual(status.chamber, .init(current: 31))
        XCTAssertEqual(status.chamberLight, true)
        XCTAssertTrue(report.merge(payload: try json(#"{"print":{"command":"push_status","task_id":"0"}}"#)))
        XCTAssertNil(report.status.jobID, "a print started from the printer's own storage has task 0: no id of its own")
    }

    /// A printer past its own total (layer 448 of 230: the file's total was wrong) shows the layer
    /// alone, not a count that reads as nonsense; at or below the total it shows both.
    func testALayerBeyondTheTotalShowsNoTotal() throws {
        var report = BambuReport()
        XCTAssertTrue(report.merge(payload: try json("""
            {"print":{"command":"push_status","gcode_state":"RUNNING","layer_num":448,"total_layer_num":230}}
            """)))
        XCTAssertEqual(StatusText.layers(report.status), "layer 448")
        XCTAssertTrue(report.merge(payload: try json(#"{"print":{"command":"push_status","layer_num":230}}"#)))
        XCTAssertEqual(StatusText.layers(report.status), "layer 230 of 230")
    }

    func testPackedTemperaturesWinAndH2DHasTwoNozzlesAndTwoLights() throws {
        var report = BambuReport()
        let packed = { (current: Int, target: Int) in current | target << 16 }
        _ = report.merge(payload: try json("""
            {"print":{"gcode_state":"PAUSE","nozzle_temper":1,"print_error":50348044,
             "device":{"extruder":{"info":[{"id":0,"temp":\(packed(215, 220))},{"id":1,"temp":\(packed(38, 0))}]},
                       "bed":{"info":{"temp":\(packed(60, 65))}},"ctc":{"info":{"temp":\(packed(40, 45))}}},
             "hms":[{"attr":50331904,"code":65543}],
             "lights_report":[{"node":"chamber_light","mode":"on"},{"node":"chamber_light2","mode":"on"}]}}
            """))
        let status = report.status
        XCTAssertEqual(status.state, .paused)
        XCTAssertEqual(status.nozzles, [.init(current: 215, target: 220)!, .init(current: 38, target: 0)!])
        XCTAssertEqual(status.bed, .init(current: 60, target: 65))
        XCTAssertEqual(status.chamber, .init(current: 40, target: 45))
        XCTAssertEqual(status.errorText, "The task was canceled. (0300_400C)")
        XCTAssertEqual(status.printError?.module, .motionController)
        XCTAssertEqual(status.alerts.map(\.code), ["0300_0100_0001_0007"])
        XCTAssertEqual(report.lightNodes, ["chamber_light", "chamber_light2"])
    }

    func testOddlyTypedAndUnknownFieldsDoNotBreakTheReport() throws {
        var report = BambuReport()
        _ = report.merge(payload: try json("""
            {"print":{"gcode_state":"SOMETHING_NEW","mc_percent":"45","layer_num":null,"hms":"garbage",
             "lights_report":{"node":"chamber_light"},"device":[1,2],"nozzle_temper":"hot","unknown":{"a":[1]}}}
            """))
        let status = report.status
        XCTAssertEqual(status.state, .idle)
        XCTAssertEqual(status.progress, 45)
        XCTAssertNil(status.layer)
        XCTAssertEqual(status.nozzles, [])
        XCTAssertNil(status.chamberLight)
        XCTAssertEqual(status.alerts, [])
    }

    func testMoonrakerStatus() throws {
        let result = try json("""
            {"print_stats":{"filename":"cube.gcode","state":"printing","print_duration":600,"message":"","filament_used":1523.7,
                            "info":{"current_layer":12,"total_layer":48}},
             "display_status":{"progress":0.25},"virtual_sdcard":{"progress":0.2},
             "heater_bed":{"temperature":59.8,"target":60},"extruder":{"temperature":209.6,"target":210}}
            """)
        let status = MoonrakerConnection.status(from: result)
        XCTAssertEqual(status.state, .printing)
        XCTAssertEqual(status.job, "cube.gcode")
        XCTAssertEqual(status.progress, 25)
        XCTAssertEqual(status.layer, 12)
        XCTAssertEqual(status.totalLayers, 48)
        XCTAssertEqual(status.filamentUsed, 1523.7)
        XCTAssertEqual(status.timeLeft, 1800)
        XCTAssertEqual(status.nozzles, [.init(current: 209.6, target: 210)!])
        XCTAssertEqual(status.bed, .init(current: 59.8, target: 60))
        let failed = MoonrakerConnection.status(from: try json(#"{"print_stats":{"state":"error","message":"Move out of range"}}"#))
        XCTAssertEqual(failed.state, .failed)
        XCTAssertEqual(failed.errorText, "Move out of range")
        // A reason or a job name with a right-to-left override or an isolate: taken out, so it cannot
        // reorder the sentence it is shown in.
        let bidi = MoonrakerConnection.status(from: try json(#"{"print_stats":{"state":"error","filename":"\u202Eedoc.gcode","message":"Heater \u2067extruder\u2069 not heating \u202Bat expected rate"}}"#))
        XCTAssertEqual(bidi.job, "edoc.gcode")
        XCTAssertEqual(bidi.errorText, "Heater extruder not heating at expected rate")
        let cancelled = MoonrakerConnection.status(from: try json(#"{"print_stats":{"state":"cancelled","message":"Cancelled"}}"#))
        XCTAssertEqual(cancelled.state, .cancelled)
        XCTAssertNil(cancelled.errorText, "a stop is no error")
        XCTAssertEqual(MoonrakerConnection.status(from: try json(#"{"print_stats":{"state":"complete"}}"#)).state, .finished)
    }

    func testOctoPrintStatus() throws {
        let job = try json("""
            {"job":{"file":{"name":"part.gcode","display":"part.gcode"}},"state":"Printing",
             "progress":{"completion":62.5,"printTime":1200,"printTimeLeft":720}}
            """)
        let printer = try json(#"{"temperature":{"tool0":{"actual":214.9,"target":215},"bed":{"actual":70,"target":70}}}"#)
        let status = OctoPrintConnection.status(job: job, printer: printer)
        XCTAssertEqual(status.state, .printing)
        XCTAssertEqual(status.job, "part.gcode")
        XCTAssertEqual(status.progress, 62.5)
        XCTAssertEqual(status.timeLeft, 720)
        XCTAssertEqual(status.nozzles, [.init(current: 214.9, target: 215)!])
        XCTAssertEqual(status.bed, .init(current: 70, target: 70))
        let done = OctoPrintConnection.status(job: try json(#"{"state":"Operational","progress":{"completion":100}}"#), printer: nil)
        XCTAssertEqual(done.state, .finished)
        XCTAssertEqual(done.nozzles, [])
        XCTAssertEqual(OctoPrintConnection.status(job: try json(#"{"state":"Offline after error"}"#), printer: nil).state, .failed)
        XCTAssertEqual(OctoPrintConnection.status(job: try json(#"{"state":"Paused"}"#), printer: nil).state, .paused)
    }

    func testMoonrakerCamerasResolveRelativeURLsAndMapWebRTC() {
        let web = URL(string: "http://10.0.0.5/")!
        func camera(_ service: String, _ url: String, rotation: Int = 0) -> ImportedCamera? {
            CameraImport.moonrakerCamera(["name": "cam", "service": service, "stream_url": url, "rotation": rotation,
                                          "flip_horizontal": true], web: web)
        }
        XCTAssertEqual(camera("mjpegstreamer-adaptive", "/webcam/?action=stream", rotation: 90)?.url, "http://10.0.0.5/webcam/?action=stream")
        XCTAssertEqual(camera("mjpegstreamer-adaptive", "/webcam/?action=stream", rotation: 90)?.rotation, 90)
        XCTAssertEqual(camera("mjpegstreamer", "/webcam/?action=stream")?.flipHorizontal, true)
        XCTAssertEqual(camera("webrtc-camerastreamer", "/webcam/webrtc")?.url, "webrtc:http://10.0.0.5/webcam/webrtc#format=camera-streamer")
        XCTAssertEqual(camera("webrtc-go2rtc", "http://10.0.0.5:1984/webrtc.html?src=printer")?.url,
                       "http://10.0.0.5:1984/api/stream.mjpeg?src=printer")
        XCTAssertEqual(camera("webrtc-mediamtx", "http://10.0.0.5:8889/cam1/")?.url, "webrtc:http://10.0.0.5:8889/cam1/whep")
        XCTAssertNil(camera("webrtc-mediamtx", "http://10.0.0.5:8889/cam1/")?.refusal, "a WebRTC camera can be added")
        XCTAssertEqual(camera("webrtc-janus", "/janus")?.isBrowserOnly, true)
        XCTAssertEqual(camera("ipstream", "rtsp://10.0.0.7:8554/live")?.url, "rtsp://10.0.0.7:8554/live")
        XCTAssertNil(CameraImport.moonrakerCamera(["name": "off", "enabled": false, "stream_url": "/x"], web: web))
    }

    func testOctoPrintCamerasFromTheListOrTheClassicBlock() {
        let base = URL(string: "http://10.0.0.6:5000")!
        let classic = CameraImport.octoprintCameras(["webcamEnabled": true, "streamUrl": "/webcam/?action=stream",
                                                     "rotate90": true, "flipV": true], base: base)
        XCTAssertEqual(classic, [ImportedCamera(name: "Camera", service: "mjpeg", url: "http://10.0.0.6:5000/webcam/?action=stream",
                                                rotation: 270, flipHorizontal: false, flipVertical: true)])
        let listed = CameraImport.octoprintCameras(["streamUrl": "/webcam/?action=stream", "webcams": [
            ["name": "classic", "displayName": "Classic Webcam", "flipH": true, "extras": ["streamUrl": "http://cam2:8080/?action=stream"]],
        ]], base: base)
        XCTAssertEqual(listed.map(\.name), ["Classic Webcam"])
        XCTAssertEqual(listed.first?.url, "http://cam2:8080/?action=stream")
        XCTAssertEqual(listed.first?.flipHorizontal, true)
    }

    func testStatusURLsParseAndNeverShowTheirSecrets() throws {
        XCTAssertEqual(try StatusEndpoint.parse("bambu://bblp:12345678@192.168.1.20?serial=01S00C123"),
                       .bambu(host: "192.168.1.20", port: 8883, accessCode: "12345678", serial: "01S00C123"))
        XCTAssertEqual(try StatusEndpoint.parse("moonraker://voron.local"), .moonraker(host: "voron.local", port: 7125, apiKey: nil))
        XCTAssertEqual(try StatusEndpoint.parse("octoprint://[::1]:5000?key=ABCDEF"), .octoprint(host: "::1", port: 5000, apiKey: "ABCDEF"))
        XCTAssertEqual(try StatusEndpoint.parse("octoprint://[::1]:5000?key=ABCDEF").baseURL?.absoluteString, "http://[::1]:5000")
        for url in ["bambu://bblp:12345678@h?serial=S", "moonraker://h?key=SECRETKEY", "octoprint://h?key=SECRETKEY"] {
            let description = try StatusEndpoint.parse(url).description
            XCTAssertFalse(description.contains("12345678") || description.contains("SECRETKEY"), description)
        }
        XCTAssertThrowsError(try StatusEndpoint.parse("octoprint://h"))
        XCTAssertThrowsError(try StatusEndpoint.parse("bambu://h?serial=S"))
        XCTAssertThrowsError(try StatusEndpoint.parse("http://h"))
    }

    /// A Flashforge URL carries the serial number; the check code comes apart (standard input, a
    /// saved printer) or as its `key`, and is masked; without either, it is refused in those words.
    func testFlashforgeURLsNeedTheSerialAndTheCheckCodeAndMaskTheCode() throws {
        XCTAssertEqual(try StatusEndpoint.parse("flashforge://192.168.1.40?serial=SNMOMC9900001", secret: "31415926"),
                       .flashforge(host: "192.168.1.40", port: 8898, serial: "SNMOMC9900001", checkCode: "31415926"))
        let keyed = try StatusEndpoint.parse("flashforge://[::1]:9000?serial=SN1&key=31415926")
        XCTAssertEqual(keyed, .flashforge(host: "::1", port: 9000, serial: "SN1", checkCode: "31415926"))
        XCTAssertEqual(keyed.baseURL?.absoluteString, "http://[::1]:9000")
        XCTAssertEqual(keyed.description, "flashforge://[::1]:9000?serial=SN1&key=\(Redactor.mask)")
        XCTAssertEqual(keyed.secrets, ["31415926"])
        XCTAssertTrue(keyed.hasSwitchableLight)
        XCTAssertThrowsError(try StatusEndpoint.parse("flashforge://h?serial=SN1")) { error in
            XCTAssertTrue("\(error)".contains("check code"), "\(error)")
        }
        XCTAssertThrowsError(try StatusEndpoint.parse("flashforge://h", secret: "31415926")) { error in
            XCTAssertTrue("\(error)".contains("serial number"), "\(error)")
            XCTAssertFalse("\(error)".contains("31415926"))
        }
    }

    /// A PrusaLink URL: the password from standard input or a saved printer (`secret`), or in the
    /// URL as maker's password or `key`; its description never shows it; without one, the message
    /// says where the printer shows it.
    func testPrusaLinkURLsTakeThePasswordAndMaskIt() throws {
        XCTAssertEqual(try StatusEndpoint.parse("prusalink://192.168.1.40", secret: "Pr1ntPass"),
                       .prusaLink(host: "192.168.1.40", port: 80, password: "Pr1ntPass"))
        XCTAssertEqual(try StatusEndpoint.parse("prusalink://maker:Pr1ntPass@[::1]:8080"), .prusaLink(host: "::1", port: 8080, password: "Pr1ntPass"))
        XCTAssertEqual(try StatusEndpoint.parse("prusa://core-one?key=Pr1ntPass"), .prusaLink(host: "core-one", port: 80, password: "Pr1ntPass"))
        XCTAssertEqual(try StatusEndpoint.parse("prusalink://[::1]:8080", secret: "P").baseURL?.absoluteString, "http://[::1]:8080")
        for url in ["prusalink://maker:Pr1ntPass@h", "prusalink://h?key=Pr1ntPass"] {
            let description = try StatusEndpoint.parse(url).description
            XCTAssertEqual(description, "prusalink://maker:***@h:80")
        }
        XCTAssertThrowsError(try StatusEndpoint.parse("prusalink://h")) {
            XCTAssertTrue("\($0)".contains("Settings → Network → PrusaLink"), "\($0)")
        }
        XCTAssertEqual(try StatusEndpoint.parse("prusalink://h", secret: "P").cameraListRefusal?.contains("rtsp://CAMERA/live"), true)
    }

    /// The usage hints list every family of the registry, in its order, as they always read.
    func testTheUsageHintsNameEachFamilysURL() {
        func message(_ url: String) -> String? {
            do { _ = try StatusEndpoint.parse(url) } catch { return error.description }
            return nil
        }
        XCTAssertEqual(message("not a url"), "not a status URL: use bambu://bblp:CODE@HOST?serial=SERIAL, moonraker://HOST, "
                           + "octoprint://HOST?key=KEY, creality://HOST, elegoo://HOST, flashforge://HOST?serial=SERIAL or prusalink://HOST")
        XCTAssertEqual(message("http://h"), "unknown status URL scheme http: use bambu://, moonraker://, octoprint://, creality://, elegoo://, flashforge:// or prusalink://")
        XCTAssertEqual(try StatusEndpoint.parse("klipper://voron:7126?key=K"), .moonraker(host: "voron", port: 7126, apiKey: "K"))
    }

    /// An Elegoo Centauri Carbon's URL: its address and the SDCP port (3030 when none is given);
    /// it carries no secret, and a key given is not kept.
    func testTheElegooURLIsRead() throws {
        XCTAssertEqual(try StatusEndpoint.parse("elegoo://192.168.1.40"), .elegoo(host: "192.168.1.40", port: 3030))
        XCTAssertEqual(try StatusEndpoint.parse("ELEGOO://[fd00::9]:3131"), .elegoo(host: "fd00::9", port: 3131))
        let keyed = try StatusEndpoint.parse("elegoo://cc.local?key=s3cret")
        XCTAssertEqual(keyed, .elegoo(host: "cc.local", port: 3030))
        XCTAssertFalse(keyed.description.contains("s3cret"), keyed.description)
        XCTAssertEqual(StatusEndpoint.elegoo(host: "fd00::9", port: 3030).description, "elegoo://[fd00::9]:3030")
        XCTAssertTrue(StatusEndpoint.elegoo(host: "cc", port: 3030).hasSwitchableLight)
    }
}
