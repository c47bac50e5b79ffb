import Foundation
import PrinterKit
import TestSupport
import XCTest

/// The preferences in `printers.json`: what is set comes back as it was, through the store; a
/// file from before preferences, and each field that is missing or bad, gives that field's default
/// and keeps the others.
final class PreferencesCodingTests: XCTestCase {
    private static let chosen = Preferences(runInBackground: false, startAtLogin: true, notifiedEvents: [.failed, .cameraLost],
                                            cameraLostMinutes: 17, soundOnFailure: false, snapshotFolder: "/srv/shots",
                                            recordingFolder: "/srv/videos", appearance: .dark, keepPicturesDays: 0,
                                            picturesLimitMB: 5120)

    func testWhatIsSetComesBackThroughTheStore() throws {
        let directory = try makeTemporaryDirectory()
        try ConfigStore(directory: directory, secrets: nil).save(AppConfig(preferences: Self.chosen))
        XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config.preferences, Self.chosen)
    }

    func testNoFieldsReadAsTheDefaults() throws {
        let read = try JSONDecoder().decode(Preferences.self, from: Data("{}".utf8))
        XCTAssertEqual(read, Preferences.standard)
        XCTAssertTrue(read.runInBackground)
        XCTAssertFalse(read.startAtLogin)
        XCTAssertEqual(read.notifiedEvents, Set(Preferences.Event.allCases))
        XCTAssertEqual(read.keepPicturesDays, 90, "the journal's pictures are kept 90 days")
        XCTAssertEqual(read.picturesLimitMB, 1000, "the journal's pictures take at most 1 GB")
        XCTAssertEqual(AppConfig().preferences, Preferences.standard, "a config from before preferences")
    }

    func testEachBadFieldTakesItsDefaultAndKeepsTheOthers() throws {
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.chosen)) as! [String: Any]
        let bad: [String: Any] = ["runInBackground": "no", "startAtLogin": 1, "notifiedEvents": "finished", "cameraLostMinutes": "5",
                                  "soundOnFailure": [true], "snapshotFolder": 42, "recordingFolder": ["a": 1], "appearance": "sepia",
                                  "keepPicturesDays": -3, "picturesLimitMB": "lots"]
        let standard = Preferences.standard
        for (key, value) in bad {
            var fields = encoded
            fields[key] = value
            let read = try JSONDecoder().decode(Preferences.self, from: JSONSerialization.data(withJSONObject: fields))
            var expected = Self.chosen
            switch key {
            case "runInBackground": expected.runInBackground = standard.runInBackground
            case "startAtLogin": expected.startAtLogin = standard.startAtLogin
            case "notifiedEvents": expected.notifiedEvents = standard.notifiedEvents
            case "cameraLostMinutes": expected.cameraLostMinutes = standard.cameraLostMinutes
            case "soundOnFailure": expected.soundOnFailure = standard.soundOnFailure
            case "snapshotFolder": expected.snapshotFolder = nil
            case "recordingFolder": expected.recordingFolder = nil
            case "keepPicturesDays": expected.keepPicturesDays = standard.keepPicturesDays
            case "picturesLimitMB": expected.picturesLimitMB = standard.picturesLimitMB
            default: expected.appearance = standard.appearance
            }
            XCTAssertEqual(read, expected, "\(key): \(value)")
        }
    }

    /// Cancelled came after files listed the notified events: a file from before (no `quietEvents`)
    /// gets it on, as a new one; once switched off it stays off.
    func testAnEventAddedLaterTakesItsDefaultUntilSwitchedOff() throws {
        let old = try JSONDecoder().decode(Preferences.self, from: Data(#"{"notifiedEvents": ["finished", "paused"]}"#.utf8))
        XCTAssertEqual(old.notifiedEvents, [.finished, .cancelled, .paused], "what the old file switched off stays off")
        var chosen = old
        chosen.notifiedEvents.remove(.cancelled)
        let again = try JSONDecoder().decode(Preferences.self, from: JSONEncoder().encode(chosen))
        XCTAssertEqual(again.notifiedEvents, [.finished, .paused])
    }

    func testUnknownEventsAreDroppedAndMinutesComeToTheNearestEnd() throws {
        let json = #"{"notifiedEvents": ["finished", "exploded"], "cameraLostMinutes": 5000}"#
        let read = try JSONDecoder().decode(Preferences.self, from: Data(json.utf8))
        XCTAssertEqual(read.notifiedEvents, [.finished, .cancelled], "and Cancelled, which a file without quietEvents did not know")
        XCTAssertEqual(read.cameraLostMinutes, Preferences.cameraLostRange.upperBound)
        XCTAssertEqual(try JSONDecoder().decode(Preferences.self, from: Data(#"{"cameraLostMinutes": -3}"#.utf8)).cameraLostMinutes, 1)
    }
}
