import CFFmpeg
import Foundation

/// Why a recording stopped before it was asked to, in words for the user. What was written until
/// then stays in the file, which plays.
public enum RecordingFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The folder or file could not be made (`reason`: the system's words).
    case cannotCreate(path: String, reason: String)
    /// The disk (or the user's quota, or the largest file allowed) is full.
    case diskFull(path: String)
    /// Writing failed another way.
    case writeFailed(path: String, reason: String)
    /// The disk took so long that pictures piled up past what is kept waiting in memory.
    case diskTooSlow(path: String)

    public var description: String {
        switch self {
        case .cannotCreate(let path, let reason):
            return String(format: tr("Could not record to “%@”: %@"), path, reason)
        case .diskFull(let path):
            return String(format: tr("The disk is full: the recording stopped. What was recorded is kept in “%@”."), path)
        case .writeFailed(let path, let reason):
            return String(format: tr("The recording stopped: writing “%@” failed (%@). What was recorded is kept."), path, reason)
        case .diskTooSlow(let path):
            return String(format: tr("The recording stopped: the disk could not keep up. What was recorded is kept in “%@”."), path)
        }
    }

    /// The failure an FFmpeg error code means while writing `path`.
    static func writing(_ code: Int32, path: String) -> RecordingFailure {
        if [ENOSPC, EDQUOT, EFBIG].contains(where: { lw_averror($0) == code }) { return .diskFull(path: path) }
        return .writeFailed(path: path, reason: FFmpegError(code: code, stage: .read).text)
    }
}
