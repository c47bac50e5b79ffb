import JournalKit
import StreamKit

/// How a journal print's result reads and looks on the History pages: its words, its icon and the
/// colour of both (libadwaita's style classes), so every place shows a result alike.
enum PrintResultLook {
    static func words(_ result: PrintResult) -> String {
        switch result {
        case .underway: tr("Printing")
        case .finished: tr("Finished")
        case .failed: tr("Failed")
        case .cancelled: tr("Cancelled")
        }
    }

    static func icon(_ result: PrintResult) -> String {
        switch result {
        case .underway: "media-playback-start-symbolic"
        case .finished: "emblem-ok-symbolic"
        case .failed: "dialog-error-symbolic"
        case .cancelled: "process-stop-symbolic"
        }
    }

    static func styleClass(_ result: PrintResult) -> String {
        switch result {
        case .underway: "accent"
        case .finished: "success"
        case .failed: "error"
        case .cancelled: "warning"
        }
    }
}
