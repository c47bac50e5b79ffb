import Foundation

/// How far a file's sending has come.
public struct UploadProgress: Equatable, Sendable {
    public let sent: Int64
    public let total: Int64

    public init(sent: Int64, total: Int64) {
        self.sent = sent
        self.total = total
    }
}

/// How sending a file to print ended. Nothing but `.started` (or `.uploaded` followed by its
/// `PrintCommand.printFile`) starts a print.
public enum UploadOutcome: Equatable, Sendable {
    /// The printer took the file and starts it (it printed on upload, or said yes to starting it).
    case started
    /// The printer has the file as `remoteName`; the status connection starts it with
    /// `PrintCommand.printFile` (Bambu Lab, Elegoo).
    case uploaded(remoteName: String)
    /// The printer, or Layerwatch for it, would not take it: why, in the user's terms.
    case refused(String)
    /// The sending failed (the printer unreachable, its answer garbage, the key rejected).
    case failed(StatusFailure)
    /// The user cancelled it: no print started, the partial file removed where the API allows.
    case cancelled
}
