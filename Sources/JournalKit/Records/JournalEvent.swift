import Foundation

/// Something that happened during a print: a pause, a resume, an alert (in words).
public struct JournalEvent: Equatable, Sendable {
    public enum Kind: String, Sendable {
        case pause, resume, alert
    }

    public var kind: Kind
    /// The printer's words: a pause's reason, an alert's summary.
    public var words: String?
    public var at: Date

    public init(kind: Kind, words: String? = nil, at: Date) {
        self.kind = kind
        self.words = words
        self.at = at
    }
}
