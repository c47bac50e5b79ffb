import CFFmpeg
import Foundation

/// Why a recording stopped before it was asked to, in words for the user. What was written until
/// then stays in its file, which plays (`StreamRecording.Status.failureMessage` says where).
public enum RecordingFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The folder or file could not be made (`reason`: the system's words).
    case cannotCreate(path: String, reason: String)
    /// The disk (or the user's quota, or the largest file allowed) is full.
    case diskFull
    /// Writing `path` failed another way.
    case writeFailed(path: String, reason: String)
    /// The disk took so long that pictures piled up past what is kept waiting in memory.
    case diskTooSlow

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason):
            return String(format: tr("Could not record to “%@”: %@"), path, reason)
        case .diskFull:
            return tr("The disk is full: the recording stopped.")
        case .writeFailed(let path, let reason):
            return String(format: tr("The recording stopped: writing “%@” failed (%@)."), path, reason)
        case .diskTooSlow:
            return tr("The recording stopped: the disk could not keep up.")
        }
    }

    /// The failure an FFmpeg error code means while writing `path`.
    static func writing(_ code: Int32, path: String) -> RecordingFailure {
        if ExclusiveFile.Failure.isDiskFull(averror: code) { return .diskFull }
        return .writeFailed(path: path, reason: FFmpegError(code: code, stage: .read).text)
    }

    /// The failure of making the file `failure.path`.
    static func creating(_ failure: ExclusiveFile.Failure) -> RecordingFailure {
        failure.isDiskFull ? .diskFull : .cannotCreate(path: failure.path, reason: failure.reason)
    }
}
