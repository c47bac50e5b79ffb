import Foundation

/// What the user chose in the Preferences window: whether Layerwatch keeps watching with its window
/// closed and starts at login, which print events it notifies (per printer: `Printer.notifies`),
/// whether a failure sounds, where snapshots and recordings go, and the appearance. Kept in
/// `printers.json` beside the printers; each field is read on its own, a missing or bad one taking
/// its default, so a file from before preferences existed loads as the defaults.
public struct Preferences: Codable, Hashable, Sendable {
    /// The print events a notification can tell.
    public enum Event: String, Codable, CaseIterable, Sendable {
        case finished, failed, paused
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

    /// The minutes `cameraLostMinutes` may be: a hand-edited file's other figures come to the nearest end.
    public static let cameraLostRange = 1...120

    public static let standard = Preferences()

    public init(runInBackground: Bool = true, startAtLogin: Bool = false,
                notifiedEvents: Set<Event> = [.finished, .failed, .paused, .alert, .cameraLost], cameraLostMinutes: Int = 5,
                soundOnFailure: Bool = true, snapshotFolder: String? = nil, recordingFolder: String? = nil,
                appearance: Appearance = .system) {
        self.runInBackground = runInBackground
        self.startAtLogin = startAtLogin
        self.notifiedEvents = notifiedEvents
        self.cameraLostMinutes = min(max(cameraLostMinutes, Self.cameraLostRange.lowerBound), Self.cameraLostRange.upperBound)
        self.soundOnFailure = soundOnFailure
        self.snapshotFolder = snapshotFolder
        self.recordingFolder = recordingFolder
        self.appearance = appearance
    }

    /// Each field read on its own: one that is missing or bad takes the standard preference's.
    public init(from decoder: Decoder) throws {
        let fields = try LenientFields(decoder, keyedBy: CodingKeys.self)
        let standard = Self.standard
        let events = fields.value(.notifiedEvents, as: [String].self) { names in Set(names.compactMap(Event.init(rawValue:))) }
        self.init(runInBackground: fields.value(.runInBackground) ?? standard.runInBackground,
                  startAtLogin: fields.value(.startAtLogin) ?? standard.startAtLogin,
                  notifiedEvents: events ?? standard.notifiedEvents,
                  cameraLostMinutes: fields.value(.cameraLostMinutes) ?? standard.cameraLostMinutes,
                  soundOnFailure: fields.value(.soundOnFailure) ?? standard.soundOnFailure,
                  snapshotFolder: fields.value(.snapshotFolder, as: String.self) { $0.isEmpty ? nil : $0 },
                  recordingFolder: fields.value(.recordingFolder, as: String.self) { $0.isEmpty ? nil : $0 },
                  appearance: fields.value(.appearance, as: String.self, Appearance.init(rawValue:)) ?? standard.appearance)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(runInBackground, forKey: .runInBackground)
        try container.encode(startAtLogin, forKey: .startAtLogin)
        try container.encode(Event.allCases.filter(notifiedEvents.contains).map(\.rawValue), forKey: .notifiedEvents)
        try container.encode(cameraLostMinutes, forKey: .cameraLostMinutes)
        try container.encode(soundOnFailure, forKey: .soundOnFailure)
        try container.encodeIfPresent(snapshotFolder, forKey: .snapshotFolder)
        try container.encodeIfPresent(recordingFolder, forKey: .recordingFolder)
        try container.encode(appearance, forKey: .appearance)
    }

    private enum CodingKeys: String, CodingKey {
        case runInBackground, startAtLogin, notifiedEvents, cameraLostMinutes, soundOnFailure, snapshotFolder, recordingFolder, appearance
    }
}
