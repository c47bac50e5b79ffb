import Foundation

/// A video made of a print: its timelapse or a recording.
public struct JournalVideo: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case timelapse, recording
    }

    public var kind: Kind
    public var file: URL

    public init(kind: Kind, file: URL) {
        self.kind = kind
        self.file = file
    }
}
