import GtkKit
import StreamKit

extension StreamSession {
    /// A view on the main loop that wants no pixels: it keeps the connection up (and converts
    /// nothing) until detached — the cameras a window will show while it starts, the cameras of a
    /// printer's tab that it does not show.
    @MainActor
    func keepConnected() -> StreamConsumer {
        attach(executor: MainLoopExecutor.main, visible: false, onState: { _ in }, onFrame: { _ in })
    }
}
