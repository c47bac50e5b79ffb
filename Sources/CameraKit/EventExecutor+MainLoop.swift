import GtkKit
import StreamKit

/// Sessions deliver a view's events on the GLib main loop: GtkKit's executor has exactly the shape
/// StreamKit asks for.
extension MainLoopExecutor: EventExecutor {}
