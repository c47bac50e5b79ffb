import Foundation
import JournalKit
import StreamKit

/// A print's timeline as its History page lists it: its start, each pause, resume and alert with
/// the printer's words, and its end with the result, in the order they happened.
struct PrintTimeline {
    struct Entry: Equatable {
        let title: String
        let words: String?
        let at: Date
        let icon: String
        /// The icon's colour (libadwaita's style class), for an alert and the end.
        var styleClass: String?
    }

    let entries: [Entry]

    /// `events` as the journal gives them (oldest first) between the print's start and its end.
    init(print: JournalPrint, events: [JournalEvent]) {
        var entries = [Entry(title: tr("Started"), words: nil, at: print.started, icon: "media-playback-start-symbolic")]
        entries += events.map { event in
            switch event.kind {
            case .pause: Entry(title: tr("Paused"), words: event.words, at: event.at, icon: "media-playback-pause-symbolic")
            case .resume: Entry(title: tr("Resumed"), words: event.words, at: event.at, icon: "media-playback-start-symbolic")
            case .alert: Entry(title: tr("Alert"), words: event.words, at: event.at, icon: "dialog-warning-symbolic", styleClass: "warning")
            }
        }
        if let ended = print.ended {
            entries.append(Entry(title: PrintResultLook.words(print.result), words: print.result == .failed ? print.error : nil,
                                 at: ended, icon: PrintResultLook.icon(print.result), styleClass: PrintResultLook.styleClass(print.result)))
        }
        self.entries = entries
    }
}
