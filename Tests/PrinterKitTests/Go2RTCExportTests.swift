import Foundation
@testable import PrinterKit
import TestSupport
import XCTest

/// "Export for go2rtc…": the YAML, read back by a real YAML parser (PyYAML), gives every printer the
/// source go2rtc needs under a safe, unique name, whatever the printers are called.
final class Go2RTCExportTests: XCTestCase {
    func testEachPrinterBecomesTheSourceGo2RTCNeeds() throws {
        let x1 = Printer(name: "X1C workshop", kind: .bambuRTSPS(.x1c), host: "192.168.1.20", accessCode: "12345678")
        let p1 = Printer(name: "P1S workshop", kind: .bambuJPEG(.p1s), host: "192.168.1.21", accessCode: "87654321")
        let apostrophe = Printer(name: "Bob's A1", kind: .bambuJPEG(nil), host: "192.168.1.22", accessCode: "ABCDEFGH")
        let bothQuotes = Printer(name: "A1 \"mini\": it's\nstreams: {evil: 1}", kind: .bambuJPEG(nil), host: "192.168.1.23")
        let backslash = Printer(name: #"back\slash "q""#, kind: .bambuJPEG(nil), host: "192.168.1.24")
        let voron = Printer(name: "Voron 2.4", kind: .klipper, host: "voron.local", cameras: [PrinterCamera(url: "http://voron.local/webcam/?action=stream")])
        let octopi = Printer(name: "Küche 🖨️", kind: .octoprint, host: "octopi.local", cameras: [PrinterCamera(url: "https://octopi.local/webcam/?action=stream")])
        let door = Printer(name: "Door: cam", kind: .generic, cameras: [PrinterCamera(url: "rtsp://admin:se%22cret@10.0.0.2:554/live")])
        let door2 = Printer(name: "door cam", kind: .generic, cameras: [PrinterCamera(url: "rtsps://10.0.0.3:322/live")])
        let typedP1 = Printer(name: "🖨", kind: .generic, cameras: [PrinterCamera(url: "bambu-jpeg://192.168.1.25?code=12345678")])
        let noCode = Printer(name: "X1E", kind: .bambuRTSPS(nil), host: "192.168.1.26")
        let file = Printer(name: "Clip", kind: .generic, cameras: [PrinterCamera(url: "/tmp/clip.mp4")])
        let printers = [x1, p1, apostrophe, bothQuotes, backslash, voron, octopi, door, door2, typedP1, noCode, file]

        let yaml = Go2RTCExport.yaml(for: printers)
        let streams = try XCTUnwrap(try Self.parse(yaml)["streams"] as? [String: String], yaml)
        XCTAssertEqual(streams, [
            "x1c_workshop": "rtspx://bblp:12345678@192.168.1.20:322/streaming/live/1",
            "p1s_workshop": "exec:layerwatch relay --printer 'P1S workshop'",
            "bob_s_a1": #"exec:layerwatch relay --printer "Bob's A1""#,
            "a1_mini_it_s_streams_evil_1": "exec:layerwatch relay --printer \(bothQuotes.id.uuidString)",
            "back_slash_q": #"exec:layerwatch relay --printer 'back\slash "q"'"#,
            "voron_2_4": "http://voron.local/webcam/?action=stream",
            "kuche": "https://octopi.local/webcam/?action=stream",
            "door_cam": "rtsp://admin:se%22cret@10.0.0.2:554/live",
            "door_cam-2": "rtsps://10.0.0.3:322/live",
            "printer": "exec:layerwatch relay --printer '🖨'",
        ])
        XCTAssertTrue(yaml.contains(#"""
              # a1_mini_it_s_streams_evil_1: "A1 \"mini\": it's\nstreams: {evil: 1}" is relayed by its id, as go2rtc's exec source would not pass its name on intact
              "a1_mini_it_s_streams_evil_1": "exec:layerwatch relay --printer \#(bothQuotes.id.uuidString)"

            """#), yaml)
        XCTAssertTrue(yaml.contains("\n  # x1e: left out, its address or access code is missing or invalid\n"), yaml)
        XCTAssertTrue(yaml.contains("\n  # clip: left out, it has no network camera URL go2rtc can open\n"), yaml)
        XCTAssertTrue(yaml.hasPrefix("# go2rtc.yaml written by Layerwatch"), yaml)
        XCTAssertTrue(yaml.contains("keep it private"), yaml)
        XCTAssertTrue(yaml.contains("on go2rtc's PATH"), yaml)
    }

    /// What go2rtc's exec source runs is the argv it makes of the source: `--printer` gets the
    /// printer's exact name, or its id when the name would not arrive intact or read as an option.
    func testGo2RTCSplitsTheRelayCommandIntoTheExactName() {
        let names = ["P1S workshop", "Bob's A1", #"say "hi""#, "  spaced  ", "tab\there", "both ' and \"", "",
                     "a#b", "${HOME}", "cost $5", "{output}", "{x}", "Küche", "-h", "--printer=X", "- dash", "a -h",
                     "6f9619ff-8b86-d011-b42d-00cf4fc964ff", "6F9619FF"]
        for name in names {
            let printer = Printer(name: name, kind: .bambuJPEG(nil), host: "192.168.1.21")
            guard case .success(let source) = Go2RTCExport.source(of: printer, camera: 0, among: [printer]) else { return XCTFail(name) }
            let argv = Self.execArgv(source.url)
            let argument = argv?.last
            XCTAssertEqual(argv?.dropLast(), ["layerwatch", "relay", "--printer"], name)
            let plain = !name.isEmpty && !(name.contains("'") && name.contains("\"")) && !name.contains("#")
                && !name.contains("{output}") && !name.contains("\t") && !name.hasPrefix("-") && UUID(uuidString: name) == nil
            XCTAssertEqual(argument, plain ? name : printer.id.uuidString, "\(name) → \(argv ?? [])")
            XCTAssertEqual(source.relayedByID == nil, plain, name)
        }
    }

    /// Two printers with one name: each relay names its own printer by id, a third keeps its name.
    func testPrintersSharingANameAreEachRelayedByTheirID() throws {
        let first = Printer(name: "P1S", kind: .bambuJPEG(.p1s), host: "192.168.1.21")
        let second = Printer(name: "P1S", kind: .generic, cameras: [PrinterCamera(url: "bambu-jpeg://192.168.1.22?code=12345678")])
        let third = Printer(name: "A1", kind: .bambuJPEG(.a1), host: "192.168.1.23")
        let yaml = Go2RTCExport.yaml(for: [first, second, third])
        let streams = try XCTUnwrap(try Self.parse(yaml)["streams"] as? [String: String], yaml)
        XCTAssertEqual(streams.mapValues { Self.execArgv($0)?.last }, [
            "p1s": first.id.uuidString, "p1s-2": second.id.uuidString, "a1": "A1",
        ])
        XCTAssertEqual(yaml.components(separatedBy: #""P1S" is relayed by its id, as another saved printer has the same name"#).count, 3, yaml)
    }

    /// A printer with several cameras: a stream per camera, named after the printer and the camera;
    /// a relayed camera past the first is named by its number.
    func testEachCameraOfAPrinterIsAStream() throws {
        let p1 = Printer(name: "P1S", kind: .bambuJPEG(.p1s), host: "192.168.1.21",
                         cameras: [.own(), PrinterCamera(name: "Door", url: "rtsp://10.0.0.2/door"),
                                   PrinterCamera(url: "bambu-jpeg://192.168.1.22?code=12345678")])
        let voron = Printer(name: "Voron", kind: .klipper, host: "voron.local",
                            cameras: [PrinterCamera(name: "Nozzle", url: "http://voron.local/webcam/?action=stream"),
                                      PrinterCamera(name: "Bed", url: "http://voron.local/webcam2/?action=stream")])
        let yaml = Go2RTCExport.yaml(for: [p1, voron])
        let streams = try XCTUnwrap(try Self.parse(yaml)["streams"] as? [String: String], yaml)
        XCTAssertEqual(streams, [
            "p1s_camera_1": "exec:layerwatch relay --printer 'P1S'",
            "p1s_door": "rtsp://10.0.0.2/door",
            "p1s_camera_3": "exec:layerwatch relay --camera 3 --printer 'P1S'",
            "voron_nozzle": "http://voron.local/webcam/?action=stream",
            "voron_bed": "http://voron.local/webcam2/?action=stream",
        ])
    }

    /// The file go2rtc reads is the text after its variable substitution: names, URLs and passwords
    /// holding `${…}`, `$`, quotes, `: `, `#`, line breaks and other scripts come out of it, and out
    /// of the YAML parser, exactly as saved — whatever variables go2rtc has.
    func testGo2RTCSubstitutesNothingAndEveryValueIsAsSaved() throws {
        let opener = Printer(name: "${X", kind: .generic, cameras: [PrinterCamera(url: "rtsp://user:pa$${HOME}ss@cam.lan:554/live/${X")])
        let closer = Printer(name: #"}" : x"#, kind: .generic, cameras: [PrinterCamera(url: #"http://cam2.lan/}" : x"#)])
        let mediamtx = Printer(name: "Küche ${HOME}", kind: .klipper, host: "voron.lan", cameras: [PrinterCamera(url: "rtsp://voron.lan:8554/${HOME}")])
        let password = Printer(name: "two\nlines: # not a comment", kind: .octoprint, host: "octopi.lan", cameras: [PrinterCamera(url: "http://u:p%40ss$w0rd@octopi.lan/webcam/?action=stream&x=${PATH:-/bin}#x")])
        let relayed = Printer(name: #"cost $5: "big" ${USER:-x}"#, kind: .bambuJPEG(.p1s), host: "192.168.1.21")
        let byID = Printer(name: "a$b ${HOME} #1", kind: .bambuJPEG(.a1), host: "192.168.1.22")
        let unicode = Printer(name: "カメラ\u{2028}🖨", kind: .generic, cameras: [PrinterCamera(url: "rtsp://cam.lan/カメラ?q=€")])
        let left = Printer(name: "${HOME}\nstreams: x", kind: .generic, cameras: [PrinterCamera(url: "/tmp/${HOME}.mp4")])
        let printers = [opener, closer, mediamtx, password, relayed, byID, unicode, left]
        let meant = [
            "x": opener.cameras[0].url!, "x-2": closer.cameras[0].url!, "kuche_home": mediamtx.cameras[0].url!,
            "two_lines_not_a_comment": password.cameras[0].url!,
            "cost_5_big_user_-x": #"exec:layerwatch relay --printer 'cost $5: "big" ${USER:-x}'"#,
            "a_b_home_1": "exec:layerwatch relay --printer \(byID.id.uuidString)",
            "printer": unicode.cameras[0].url!,
        ]

        let yaml = Go2RTCExport.yaml(for: printers)
        let parsed = try Self.parse(yaml)
        XCTAssertEqual(parsed["streams"] as? [String: String], meant, yaml)
        let everySet: (String) -> String? = { _ in "SUBSTITUTED" }, noneSet: (String) -> String? = { _ in nil }
        for variables in [everySet, noneSet] {
            let substituted = Self.go2rtcReplaceVars(yaml, variables: variables)
            XCTAssertEqual(try Self.parse(substituted) as NSDictionary, parsed as NSDictionary, substituted)
        }
        XCTAssertEqual(yaml.split(separator: "\n").filter { $0.hasPrefix("  #") }.count, 2, "one relay by id, one left out: \(yaml)")
    }

    /// The test's copy of go2rtc's substitution does what go2rtc's does, so the test above can fail.
    func testTheSubstitutionModelReplacesWhatGo2RTCReplaces() {
        let set = { (name: String) in name == "HOME" ? "/root" : nil }
        XCTAssertEqual(Self.go2rtcReplaceVars(#"a: "${HOME}" b: "${NOPE}" c: "${NOPE:dflt}" d: "${HOME:dflt}""#, variables: set),
                       #"a: "/root" b: "${NOPE}" c: "dflt" d: "/root""#)
        // Across lines and comments, the way two crafted URLs broke the whole file.
        XCTAssertEqual(Self.go2rtcReplaceVars("  a: \"${X\"\n  # c\n  b: \"}\" : x\"\n", variables: set), "  a: \" \"\" : x\"\n")
    }

    func testEveryStringSurvivesYAMLQuoting() throws {
        let texts = ["plain", "a: b", "#comment", "\"quoted\"", #"back\slash"#, "line\nbreak", "tab\tcr\r",
                     "nul\u{0}bell\u{7}", "del\u{7F}c1\u{85}", "ls\u{2028}ps\u{2029}", "\u{FEFF}bom", "Küche 🖨️", "- item",
                     "{a: 1}", "'single'", "*alias", "&anchor", "!tag", "%", "@", "`", "|", ">", "null", "yes", "1e3", ""]
        let yaml = texts.enumerated().map { "k\($0.offset): \(Go2RTCExport.quoted($0.element))" }.joined(separator: "\n")
        let parsed = try Self.parse(yaml)
        for (index, text) in texts.enumerated() {
            XCTAssertEqual(parsed["k\(index)"] as? String, text, "\(index): \(yaml)")
        }
    }

    func testStreamNamesAreSafeAndUnique() {
        var taken = Set<String>()
        let names = ["P1S", "p1s", "P1S", "-Lead_ing-", "Ünïcödé", "日本", "", "a  b", "printer", "A-2", "a"]
            .map { Go2RTCExport.streamName($0, taken: &taken) }
        XCTAssertEqual(names, ["p1s", "p1s-2", "p1s-3", "lead_ing", "unicode", "printer", "printer-2", "a_b",
                               "printer-3", "a-2", "a"])
        let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789_-")
        XCTAssertTrue(names.allSatisfy { $0.allSatisfy(allowed.contains) })
        XCTAssertEqual(Set(names).count, names.count)
    }

    func testTheFileIsOwnerOnlyAndReplacedWhole() throws {
        let directory = try makeTemporaryDirectory()
        let url = directory.appendingPathComponent("go2rtc.yaml")
        try Data("old, readable by all".utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
        let printers = [Printer(name: "X1C", kind: .bambuRTSPS(nil), host: "192.168.1.20", accessCode: "12345678")]
        try Go2RTCExport.write(printers, to: url)
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), Go2RTCExport.yaml(for: printers))
        XCTAssertEqual(try permissions(url), 0o600)
        XCTAssertThrowsError(try Go2RTCExport.write(printers, to: directory.appendingPathComponent("missing/go2rtc.yaml"))) {
            XCTAssertTrue("\($0)".contains("missing"), "\($0)")
        }
    }

    /// `yaml` read by PyYAML's safe loader, as JSON.
    private static func parse(_ yaml: String) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(sys.stdin.read())))"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(yaml.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "PyYAML could not read:\n\(yaml)")
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// The argv go2rtc's exec source (`internal/exec/exec.go` `execHandle`) runs for `source`: the
    /// part before the first `#` (its parameters) after `exec:`, split by `QuoteSplit`; nil when it
    /// holds `{output}` (replaced by an RTSP address) or does not split.
    private static func execArgv(_ source: String) -> [String]? {
        guard source.hasPrefix("exec:"), !source.contains("{output}") else { return nil }
        return quoteSplit(String(source.dropFirst(5).prefix { $0 != "#" }))
    }

    /// go2rtc's substitution of variables in its config file (AlexxIT/go2rtc `pkg/creds/creds.go`
    /// `ReplaceVars`, applied by `internal/app/config.go` `initConfig` to the file's raw bytes before
    /// the YAML is parsed): every match of `\$\{([^}{]+)\}` — across lines and comments alike —
    /// whose key (before the first `:`, if that is not the first character) has a value is replaced
    /// by it, else by the default after the `:` when there is one, else left as is. No escape exists.
    private static func go2rtcReplaceVars(_ text: String, variables: (String) -> String?) -> String {
        let pattern = try! NSRegularExpression(pattern: #"\$\{([^}{]+)\}"#)
        var result = ""
        var rest = text.startIndex
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let whole = Range(match.range, in: text)!
            var key = String(text[Range(match.range(at: 1), in: text)!])
            var fallback: String?
            if let colon = key.firstIndex(of: ":"), colon > key.startIndex {
                fallback = String(key[key.index(after: colon)...])
                key = String(key[..<colon])
            }
            result += text[rest..<whole.lowerBound] + (variables(key) ?? fallback ?? String(text[whole]))
            rest = whole.upperBound
        }
        return result + text[rest...]
    }

    /// go2rtc's `pkg/shell.QuoteSplit`, byte for byte: whitespace separates, '…' or "…" groups up
    /// to the next same quote (no escapes, an empty or unclosed quote is an error: nil).
    private static func quoteSplit(_ command: String) -> [String]? {
        var rest = Substring(command)
        var argv: [String] = []
        while let first = rest.first {
            if " \t\n\r".contains(first) {
                rest = rest.dropFirst()
            } else if first == "'" || first == "\"" {
                guard let end = rest.dropFirst().firstIndex(of: first), end > rest.index(after: rest.startIndex) else { return nil }
                argv.append(String(rest[rest.index(after: rest.startIndex)..<end]))
                rest = rest[rest.index(after: end)...]
            } else {
                let end = rest.firstIndex { " \t\n\r".contains($0) } ?? rest.endIndex
                argv.append(String(rest[..<end]))
                rest = rest[end...]
            }
        }
        return argv
    }
}
