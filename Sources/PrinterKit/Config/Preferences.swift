import Foundation

/// What the user chose in the Preferences window: whether Layerwatch keeps watching with its window
/// closed and starts at login, which print events it notifies (per printer: `Printer.notifies`),
/// whether a failure sounds, where snapshots and recordings go, the appearance, and how long the
/// print journal keeps its pictures. Kept in
/// `printers.json` beside the printers; each field is read on its own, a missing or bad one taking
/// its default, so a file from before preferences existed loads as the defaults.
public struct Preferences: Codable, Hashable, Sendable {
    /// The print events a notification can tell.
    public enum Event: String, Codable, CaseIterable, Sendable {
        case finished, failed, cancelled, paused
        /// A Bambu HMS alert (a fault the printer reports while it may go on printing).
        case alert
        /// The camera has been lost for more than `cameraLostMinutes`.
        case cameraLost
    }

    /// Light or dark, or as the desktop says (AdwStyleManager's colour schemes).
    public enum Appearance: String, Codable, CaseIterable, Sendable {
        case system, light, dark
    }

    /// Closing the last window keeps Layerwatch watching printers that have status (and running
    /// recordings and timelapses) until Quit.
    public var runInBackground: Bool
    /// Layerwatch starts, without a window, when the user logs in.
    public var startAtLogin: Bool
    /// The events notified (for printers whose notifications are on).
    public var notifiedEvents: Set<Event>
    /// How long a camera must stay lost before `.cameraLost` is notified.
    public var cameraLostMinutes: Int
    /// A failed print's notification asks for attention (urgent, with a sound where the desktop
    /// plays one).
    public var soundOnFailure: Bool
    /// Where snapshots go; nil: Pictures/Layerwatch.
    public var snapshotFolder: String?
    /// Where recordings and timelapses go; nil: Videos/Layerwatch.
    public var recordingFolder: String?
    public var appearance: Appearance
    /// How many days the print journal keeps a print's pictures after it ended; 0: for ever.
    public var keepPicturesDays: Int
    /// How many megabytes (millions of bytes, as the disk use shows them) the print journal's pictures may take in all, the oldest deleted
    /// first beyond it; 0: no limit.
    public var picturesLimitMB: Int

    /// The minutes `cameraLostMinutes` may be: a hand-edited file's other figures come to the nearest end.
    public static let cameraLostRange = 1...120

    public static let standard = Preferences()

    /// The events added after `printers.json` began to list the notified ones (without
    /// `quietEvents`): such a file chose only among the others.
    private static let laterEvents: Set<Event> = [.cancelled]

    public init(runInBackground: Bool = true, startAtLogin: Bool = false,
                notifiedEvents: Set<Event> = [.finished, .failed, .cancelled, .paused, .alert, .cameraLost], cameraLostMinutes: Int = 5,
                soundOnFailure: Bool = true, snapshotFolder: String? = nil, recordingFolder: String? = nil,
                appearance: Appearance = .system, keepPicturesDays: Int = 90, picturesLimitMB: Int = 1000) {
        self.runInBackground = runInBackground
        self.startAtLogin = startAtLogin
        self.notifiedEvents = notifiedEvents
        self.cameraLostMinutes = min(max(cameraLostMinutes, Self.cameraLostRange.lowerBound), Self.cameraLostRange.upperBound)
        self.soundOnFailure = soundOnFailure
        self.snapshotFolder = snapshotFolder
        self.recordingFolder = recordingFolder
        self.appearance = appearance
        self.keepPicturesDays = max(0, keepPicturesDays)
        self.picturesLimitMB = max(0, picturesLimitMB)
    }

    /// Each field read on its own: one that is missing or bad takes the standard preference's.
    public init(from decoder: Decoder) throws {
        let fields = try LenientFields(decoder, keyedBy: CodingKeys.self)
        let standard = Self.standard
        let listed = fields.value(.notifiedEvents, as: [String].self) { names in Set(names.compactMap(Event.init(rawValue:))) }
        // An event the file names in neither list takes its default: a file with `quietEvents`
        // names the ones switched off; one from before it knew no event added since.
        let quiet = fields.value(.quietEvents, as: [String].self) { names in Set(names.compactMap(Event.init(rawValue:))) }
        let unnamed = quiet.map { Set(Event.allCases).subtracting($0) } ?? Self.laterEvents
        let events = listed.map { $0.union(unnamed.intersection(standard.notifiedEvents)) }
        self.init(runInBackground: fields.value(.runInBackground) ?? standard.runInBackground,
                  startAtLogin: fields.value(.startAtLogin) ?? standard.startAtLogin,
                  notifiedEvents: events ?? standard.notifiedEvents,
                  cameraLostMinutes: fields.value(.cameraLostMinutes) ?? standard.cameraLostMinutes,
                  soundOnFailure: fields.value(.soundOnFailure) ?? standard.soundOnFailure,
                  snapshotFolder: fields.value(.snapshotFolder, as: String.self) { $0.isEmpty ? nil : $0 },
                  recordingFolder: fields.value(.recordingFolder, as: String.self) { $0.isEmpty ? nil : $0 },
                  appearance: fields.value(.appearance, as: String.self, Appearance.init(rawValue:)) ?? standard.appearance,
                  keepPicturesDays: fields.value(.keepPicturesDays, as: Int.self) { $0 >= 0 ? $0 : nil } ?? standard.keepPicturesDays,
                  picturesLimitMB: fields.value(.picturesLimitMB, as: Int.self) { $0 >= 0 ? $0 : nil } ?? standard.picturesLimitMB)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(runInBackground, forKey: .runInBackground)
        try container.encode(startAtLogin, forKey: .startAtLogin)
        try container.encode(Event.allCases.filter(notifiedEvents.contains).map(\.rawValue), forKey: .notifiedEvents)
        try container.encode(Event.allCases.filter { !notifiedEvents.contains($0) }.map(\.rawValue), forKey: .quietEvents)
        try container.encode(cameraLostMinutes, forKey: .cameraLostMinutes)
        try container.encode(soundOnFailure, forKey: .soundOnFailure)
        try container.encodeIfPresent(snapshotFolder, forKey: .snapshotFolder)
        try container.encodeIfPresent(recordingFolder, forKey: .recordingFolder)
        try container.encode(appearance, forKey: .appearance)
        try container.encode(keepPicturesDays, forKey: .keepPicturesDays)
        try container.encode(picturesLimitMB, forKey: .picturesLimitMB)
    }

    private enum CodingKeys: String, CodingKey {
        case runInBackground, startAtLogin, notifiedEvents, quietEvents, cameraLostMinutes, soundOnFailure, snapshotFolder, recordingFolder, appearance,
             keepPicturesDays, picturesLimitMB
    }
}
