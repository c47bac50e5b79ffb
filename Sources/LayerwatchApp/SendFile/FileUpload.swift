import Foundation
import GtkKit
import StatusKit
import StreamKit

/// One printer's `PrintFileSending`, on a thread of its own so the main loop never waits on the
/// network or the disk: its progress (at most ten reports a second) and its result come to the
/// main loop. `cancel` stops it; a cancelled sending never starts a print.
@MainActor
final class FileUpload {
    let sending: PrintFileSending
    /// The last progress reported.
    private(set) var progress: PrintFileSending.Progress?

    /// Starts `sending` given the printer's latest `update` and its `monitor`; `onProgress` and
    /// `onEnd` are called on the main loop.
    init(_ sending: PrintFileSending, given update: StatusMonitor.Update?, monitor: StatusMonitor,
         onProgress: @escaping @MainActor () -> Void, onEnd: @escaping @MainActor (PrintFileSending.Result) -> Void) {
        self.sending = sending
        let report = WeakUpload(self)
        Thread.detachNewThread {
            let result = sending.run(given: update, monitor: monitor) { progress in
                MainLoopExecutor.main.runOnMainActor {
                    guard let upload = report.upload else { return }
                    upload.progress = progress
                    onProgress()
                }
            }
            MainLoopExecutor.main.runOnMainActor { onEnd(result) }
        }
    }

    func cancel() { sending.cancel() }
}

/// The upload a sending thread reports to, while it is kept (read on the main loop only).
private final class WeakUpload: @unchecked Sendable {
    @MainActor weak var upload: FileUpload?
    @MainActor init(_ upload: FileUpload) { self.upload = upload }
}
