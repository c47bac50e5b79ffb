import Foundation
import JournalKit
import StreamKit

/// What a command says on standard error of the print journal it opened, so that `history` and
/// `print` word a journal that could not be used alike: one that could not be read was set aside
/// (as the app does, `JournalStore`) and a new one started; one that could not be opened at all.
enum JournalOpeningWords {
    /// Says what became of `store`'s journal if it was not simply opened; false when no journal
    /// could be opened.
    static func tell(_ store: JournalStore) -> Bool {
        switch store.opening {
        case .opened:
            return true
        case .setAside(let broken, _):
            say(String(format: tr("The print journal could not be read. It was set aside as “%@” and a new one started."), broken.path))
            return true
        case .unavailable:
            say(String(format: tr("The print journal “%@” could not be opened."), store.url.path))
            return false
        }
    }

    private static func say(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
