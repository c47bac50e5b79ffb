import CGtk

/// Runs `handler` in the main loop the first time the process gets the Unix signal `number`
/// (SIGTERM, SIGINT): once, after which the signal finds its default action again.
@MainActor
public func onUnixSignal(_ number: Int32, once handler: @escaping @MainActor () -> Void) {
    let thunk: @convention(c) (gpointer?) -> gboolean = { data in
        nonisolated(unsafe) let handler = ClosureBox<@MainActor () -> Void>.value(at: data)
        MainActor.assumeIsolated { handler() }
        return gboolean(G_SOURCE_REMOVE)
    }
    g_unix_signal_add_full(G_PRIORITY_DEFAULT, number, thunk, ClosureBox(handler).retainedPointer(), closureBoxDestroyNotify)
}
