import Foundation
@testable import StatusKit
import TestSupport
import XCTest

/// Numbers no real printer sends — 1e308, -1e300, NaN and infinity as strings, layers of 1e14 —
/// in every protocol's report: each field outside its range is unknown (not shown), the rest of the
/// status stands, and nothing that words a status (the strip's, the notifications', `status`'s)
/// traps. A fuzz pass then puts random numbers, finite and not, into every numeric field.
final class HostileNumberTests: XCTestCase {
    private func json(_ text: String) throws -> [String: Any] {
        try JSONValue.object(Data(text.utf8))
    }

    /// Words every field of `status` as the app and the CLI do; a trap fails the whole test run.
    private func word(_ status: PrinterStatus) -> String {
        var words = [StatusText.state(status.state), StatusText.layers(status) ?? ""]
        if let left = status.timeLeft { words += [StatusText.duration(left), StatusText.finishTime(after: left)] }
        words += StatusText.heaters(status).map { "\($0.label) \($0.value)" }
        words.append(status.progress.map { String(PrinterNumber.rounded($0)) } ?? "")
        return words.joined(separator: " ")
    }

    func testMoonrakerHugeDurationAndTemperaturesAreUnknownNotATrap() throws {
        let status = MoonrakerConnection.status(from: try json("""
            {"print_stats":{"state":"printing","filename":"Benchy.gcode","print_duration":1e308,
             "info":{"current_layer":1e14,"total_layer":120}},
             "display_status":{"progress":0.5},"extruder":{"temperature":1e308,"target":215},
             "heater_bed":{"temperature":-1e300,"target":60}}
            """))
        XCTAssertEqual(status.state, .printing)
        XCTAssertEqual(status.job, "Benchy.gcode")
        XCTAssertEqual(status.progress, 50)
        XCTAssertNil(status.timeLeft, "1e308 s printed: past ten years, unknown")
        XCTAssertNil(status.layer)
        XCTAssertEqual(status.totalLayers, 120)
        XCTAssertEqual(status.nozzles, [], "a nozzle at 1e308 °C has no reading")
        XCTAssertNil(status.bed)
        XCTAssertFalse(word(status).isEmpty)
        // The estimate from a duration just inside the range at a tiny fraction is past ten years too.
        let derived = MoonrakerConnection.status(from: try json("""
            {"print_stats":{"state":"printing","filename":"a","print_duration":3e8},"display_status":{"progress":0.0011}}
            """))
        XCTAssertNil(derived.timeLeft)
    }

    func testOctoPrintHugeTimeLeftAndToolTemperature() throws {
        let status = OctoPrintConnection.status(
            job: try json(#"{"state":"Printing","job":{"file":{"name":"Cube.gcode"}},"progress":{"completion":"NaN","printTimeLeft":1e300}}"#),
            printer: try json(#"{"temperature":{"tool0":{"actual":1e308,"target":210},"tool1":{"actual":200,"target":"Infinity"},"bed":{"actual":60,"target":60}}}"#))
        XCTAssertEqual(status.state, .printing)
        XCTAssertNil(status.progress)
        XCTAssertNil(status.timeLeft)
        XCTAssertEqual(status.nozzles, [.init(current: 200, target: nil)!], "tool0 unknown, tool1's infinite target unknown")
        XCTAssertEqual(status.bed, .init(current: 60, target: 60))
        XCTAssertFalse(word(status).isEmpty)
    }

    func testBambuHugeRemainingTimeNozzleAndLayer() throws {
        for remaining in ["1e19", "1e308", "-5", "\"NaN\""] {
            var report = BambuReport()
            _ = report.merge(payload: try json("""
                {"print":{"gcode_state":"RUNNING","mc_percent":1e308,"mc_remaining_time":\(remaining),"layer_num":1e14,
                 "total_layer_num":-3,"nozzle_temper":1e308,"nozzle_target_temper":220,"bed_temper":60,"print_error":1e19,
                 "hms":[{"attr":1e308,"code":7},{"attr":50331904,"code":65543}],"device":{"bed":{"info":{"temp":1e300}}}}}
                """))
            let status = report.status
            XCTAssertEqual(status.state, .printing)
            XCTAssertNil(status.progress)
            XCTAssertNil(status.timeLeft, remaining)
            XCTAssertNil(status.layer)
            XCTAssertNil(status.totalLayers)
            XCTAssertEqual(status.nozzles, [])
            XCTAssertEqual(status.bed, .init(current: 60), "the flat reading stands when the packed one is implausible")
            XCTAssertNil(status.errorText, "an error code past 32 bits is no code")
            XCTAssertEqual(status.alerts.map(\.code), ["0300_0100_0001_0007"], "the entry with a plausible code stays")
            XCTAssertFalse(word(status).isEmpty)
        }
    }

    func testFormattersTakeAnyDoubleWithoutTrapping() {
        for value in [Double.nan, .infinity, -.infinity, 1e308, -1e308, Double(Int.max), 0] {
            _ = StatusText.duration(value)
            _ = StatusText.finishTime(after: value)
            XCTAssertNotNil(PrinterStatus.Temperature(current: 20, target: value).map(StatusText.temperature))
            XCTAssertNil(PrinterStatus.Temperature(current: value.isFinite && abs(value) < 1000 ? 2000 : value))
            var status = PrinterStatus(state: .printing, progress: value, timeLeft: value)
            status.layer = value.isFinite && abs(value) < 1e15 ? Int(value) : nil
            XCTAssertTrue(status.progress.map { (0...100).contains($0) } ?? true)
            XCTAssertTrue(status.timeLeft.map { $0 <= PrinterNumber.seconds.upperBound } ?? true)
            _ = word(status)
        }
    }

    func testAHugeHMSListCostsNoMoreThanItsLimit() throws {
        // 200 000 entries, about 8 MB: under the 10 MB message cap.
        let entry = #"{"attr":50331904,"code":65543},"#
        let text = #"{"print":{"gcode_state":"RUNNING","hms":["# + String(repeating: entry, count: 200_000).dropLast() + "]}}"
        XCTAssertLessThan(text.utf8.count, 10 * 1024 * 1024)
        let before = ProcessMemory.residentBytes ?? 0
        var report = BambuReport()
        for _ in 0..<3 { _ = report.merge(payload: try json(text)) }
        let grown = (ProcessMemory.residentBytes ?? 0) - before
        print("200 000 HMS entries (\(text.utf8.count / 1_000_000) MB), parsed 3 times: resident memory grew by \(grown / 1_048_576) MB")
        XCTAssertEqual((report.fields["hms"] as? [Any])?.count, JSONPruner.elements, "cut while parsing")
        XCTAssertEqual(report.status.alerts.count, 1, "one distinct code")
        XCTAssertLessThan(grown, 200 * 1024 * 1024, "memory grew by \(grown / 1_048_576) MB (660 MB before the limit)")
    }

    func testJSONNestedDeeperThanAnyPrinterIsRefused() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsError(try json(#"{"a":"# + deep + "}"))
        XCTAssertEqual(try json(#"{"a":[1,2,{"b":"x\"]}"}],"c":null}"#) as NSDictionary,
                       ["a": [1, 2, ["b": "x\"]}"]], "c": NSNull()] as NSDictionary, "a plain answer passes whole")
    }

    /// Random numbers, finite and not, as numbers and as strings, in every numeric field of each
    /// protocol's report, for a few seconds: every status builds and words without a trap, and every
    /// field it shows is in its range.
    func testFuzzEveryNumericField() throws {
        var generator = SystemRandomNumberGenerator()
        func hostile() -> String {
            let pick = ["1e308", "-1e308", "1e19", "-1", "0", "0.5", "\"NaN\"", "\"Infinity\"", "\"-inf\"", "\"1e400\"",
                        "9223372036854775807", "18446744073709551616", "4294967296", "\"12\"", "\"\"", "true", "null",
                        String(Double.random(in: -1e20...1e20, using: &generator)), String(Int.random(in: -1000...100_000, using: &generator))]
            return pick.randomElement(using: &generator)!
        }
        let deadline = Date().addingTimeInterval(3)
        var reports = 0
        while Date() < deadline {
            var bambu = BambuReport()
            _ = bambu.merge(payload: try json("""
                {"print":{"gcode_state":"RUNNING","mc_percent":\(hostile()),"mc_remaining_time":\(hostile()),
                 "layer_num":\(hostile()),"total_layer_num":\(hostile()),"nozzle_temper":\(hostile()),
                 "nozzle_target_temper":\(hostile()),"bed_temper":\(hostile()),"bed_target_temper":\(hostile()),
                 "chamber_temper":\(hostile()),"print_error":\(hostile()),"hms":[{"attr":\(hostile()),"code":\(hostile())}],
                 "device":{"extruder":{"info":[{"temp":\(hostile())}]},"bed":{"info":{"temp":\(hostile())}},"ctc":{"info":{"temp":\(hostile())}}}}}
                """))
            let moonraker = MoonrakerConnection.status(from: try json("""
                {"print_stats":{"state":"printing","filename":"a","print_duration":\(hostile()),
                 "info":{"current_layer":\(hostile()),"total_layer":\(hostile())}},
                 "display_status":{"progress":\(hostile())},"virtual_sdcard":{"progress":\(hostile())},
                 "extruder":{"temperature":\(hostile()),"target":\(hostile())},"heater_bed":{"temperature":\(hostile()),"target":\(hostile())}}
                """))
            let octoprint = OctoPrintConnection.status(
                job: try json(#"{"state":"Printing","progress":{"completion":\#(hostile()),"printTimeLeft":\#(hostile())}}"#),
                printer: try json(#"{"temperature":{"tool0":{"actual":\#(hostile()),"target":\#(hostile())},"bed":{"actual":\#(hostile()),"target":\#(hostile())},"chamber":{"actual":\#(hostile())}}}"#))
            for status in [bambu.status, moonraker, octoprint] {
                _ = word(status)
                XCTAssertTrue(status.progress.map { PrinterNumber.percent.contains($0) } ?? true)
                XCTAssertTrue(status.timeLeft.map { PrinterNumber.seconds.contains($0) } ?? true)
                XCTAssertTrue(status.layer.map { PrinterNumber.layers.contains($0) } ?? true)
                let heaters = status.nozzles + [status.bed, status.chamber].compactMap { $0 }
                XCTAssertTrue(heaters.allSatisfy { PrinterNumber.celsius.contains($0.current) })
            }
            reports += 3
        }
        XCTAssertGreaterThan(reports, 100)
    }
}
