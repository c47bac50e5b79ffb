import CSoup
import CWebSocketGuard
import Foundation
import StreamKit

/// A WebSocket client connection for a printer's status, on libsoup 3: its handshake, frames,
/// fragments, pongs and close. libsoup runs on a GMainContext of this client's own, which only the
/// thread that calls `receive` (the status monitor's) pushes as its thread-default and iterates,
/// so nothing runs on the app's main loop and libsoup is only ever called from one thread; other
/// threads queue text (`send`) and wake that thread. Below libsoup, a guard on the server's frames
/// (`lw_websocket_guard_session`) hands text messages over as binary (one that is not UTF-8 costs
/// only itself, the caller skips it), bounds a ping flood (`ControlFrameBudget`) and ends the
/// connection on a message larger than `maximumMessage` before its payload is kept; libsoup's and
/// the guard's errors reach the caller as `StatusFailure`s in the user's terms (`WebSocketFailure`),
/// never as libsoup's text.
final class WebSocketClient: @unchecked Sendable {
    /// The largest message kept: a printer's status message is a few kilobytes.
    static let maximumMessage = 1 << 20
    /// The most text messages waiting to be sent: a few commands; more are dropped, so a
    /// connection that cannot send holds no growing queue.
    static let maximumQueued = 64
    /// The longest one iteration of the context waits, so a stop is seen soon.
    private static let slice: TimeInterval = 0.25

    private let context: OpaquePointer
    private let session: UnsafeMutablePointer<SoupSession>
    private var connection: OpaquePointer?
    private let stop: StopSignal
    /// When the server last sent anything (a message, a pong).
    private(set) var lastHeard = Date()
    /// Whole messages received and not yet handed over, and the failure that ended the connection.
    private var inbox: [[UInt8]] = []
    private var failure: StatusFailure?
    private var handshakeDone = false
    /// The handshake's request while it is under way (its answer's status tells a refusal).
    private var request: OpaquePointer?

    private let lock = NSLock()
    private var outgoing: [String] = []
    private var woken = false

    /// Connects to `ws://host:port` + `path` and completes the handshake within `timeout`; once open, libsoup
    /// pings the server every `keepalive` seconds (whole seconds, none when 0), so a pong shows a
    /// quiet printer is still there.
    init(host: String, port: Int, path: String = "/", timeout: TimeInterval, keepalive: TimeInterval = 0, stop: StopSignal) throws(StatusFailure) {
        context = g_main_context_new()
        g_main_context_push_thread_default(context)
        defer { g_main_context_pop_thread_default(context) }
        var limits = ControlFrameBudget.limits(maximumMessage: Self.maximumMessage)
        session = lw_websocket_guard_session(host, Int32(port), &limits)
        self.stop = stop
        soup_session_set_user_agent(session, "Layerwatch")
        guard let message = soup_message_new("GET", "ws://\(StreamSource.bracketed(host)):\(port)\(path)") else { throw .timeout }
        request = message
        // A redirect is the server's answer, not a place to follow the printer to.
        soup_message_add_flags(message, SOUP_MESSAGE_NO_REDIRECT)
        defer {
            request = nil
            g_object_unref(UnsafeMutableRawPointer(message))
        }
        let cancellable = g_cancellable_new()
        defer { g_object_unref(cancellable) }
        soup_session_websocket_connect_async(session, message, nil, nil, G_PRIORITY_DEFAULT, cancellable, { _, result, data in
            let client = Unmanaged<WebSocketClient>.fromOpaque(data!).takeUnretainedValue()
            client.handshakeDone = true
            var error: UnsafeMutablePointer<GError>?
            client.connection = soup_session_websocket_connect_finish(client.session, result, &error)
            if let error {
                client.failure = WebSocketFailure.handshake(error.pointee, answer: client.request)
                g_error_free(error)
            }
        }, Unmanaged.passUnretained(self).toOpaque())
        let deadline = Date().addingTimeInterval(timeout)
        var cancelled = false
        // Cancelled, the handshake still calls back (with G_IO_ERROR_CANCELLED), in an iteration or two.
        while !handshakeDone {
            if !cancelled && (stop.isStopped || Date() >= deadline) {
                cancelled = true
                g_cancellable_cancel(cancellable)
            }
            dispatch(waiting: cancelled ? Self.slice : min(Self.slice, max(0, deadline.timeIntervalSinceNow)))
        }
        if cancelled { throw .timeout }
        if let failure { throw failure }
        guard let connection else { throw .timeout }
        // libsoup's own cap (128 KiB by default) above the guard's, which refuses first.
        soup_websocket_connection_set_max_incoming_payload_size(connection, guint64(Self.maximumMessage))
        if keepalive > 0 { soup_websocket_connection_set_keepalive_interval(connection, guint(keepalive.rounded(.up))) }
        listen(on: connection)
        lastHeard = Date()
    }

    deinit {
        g_main_context_push_thread_default(context)
        if let connection {
            g_signal_handlers_disconnect_matched(UnsafeMutableRawPointer(connection), G_SIGNAL_MATCH_DATA, 0, 0, nil, nil,
                                                 Unmanaged.passUnretained(self).toOpaque())
            // Closed here, its socket is shut at once; libsoup's own close when it lets go of the
            // connection then completes in the iterations below, not on a context no one runs.
            g_io_stream_close(soup_websocket_connection_get_io_stream(connection), nil, nil)
            g_object_unref(UnsafeMutableRawPointer(connection))
            while g_main_context_iteration(context, 0) != 0 {}
        }
        g_object_unref(session)
        g_main_context_pop_thread_default(context)
        g_main_context_unref(context)
    }

    /// Queues a text message (from any thread); the thread in `receive` sends it at once.
    func send(text: String) {
        lock.withLock { if outgoing.count < Self.maximumQueued { outgoing.append(text) } }
        wakeUp()
    }

    /// Wakes the thread in `receive` (from any thread).
    func wakeUp() {
        lock.withLock { woken = true }
        g_main_context_wakeup(context)
    }

    /// Sends a close frame (normal closure, 1000), without waiting for the answer (on the thread
    /// that calls `receive`).
    func close() {
        guard let connection, soup_websocket_connection_get_state(connection) == SOUP_WEBSOCKET_STATE_OPEN else { return }
        g_main_context_push_thread_default(context)
        soup_websocket_connection_close(connection, gushort(SOUP_WEBSOCKET_CLOSE_NORMAL.rawValue), nil)
        g_main_context_iteration(context, 0)
        g_main_context_pop_thread_default(context)
    }

    /// Sends what is queued, then the whole messages that arrive within `seconds` (each a text or
    /// binary message's bytes): empty when none did or the wait was woken. Throws when the server
    /// closed the connection or sent what the protocol forbids.
    func receive(waiting seconds: TimeInterval) throws(StatusFailure) -> [[UInt8]] {
        let deadline = Date().addingTimeInterval(seconds)
        g_main_context_push_thread_default(context)
        flush()
        while inbox.isEmpty && failure == nil && !lock.withLock({ defer { woken = false }; return woken }) {
            let left = deadline.timeIntervalSinceNow
            guard left > 0, !stop.isStopped else { break }
            dispatch(waiting: min(left, Self.slice))
            flush()
        }
        g_main_context_pop_thread_default(context)
        if let failure { throw failure }
        defer { inbox.removeAll() }
        return inbox
    }

    /// One iteration of the context, waiting at most `seconds` for something to do.
    private func dispatch(waiting seconds: TimeInterval) {
        let timer = g_timeout_source_new(guint(max(0, seconds) * 1000))
        g_source_set_callback(timer, { _ in gboolean(G_SOURCE_REMOVE) }, nil, nil)
        g_source_attach(timer, context)
        g_main_context_iteration(context, 1)
        g_source_destroy(timer)
        g_source_unref(timer)
    }

    /// Hands the queued text to libsoup, which writes it at once (on this thread).
    private func flush() {
        let texts = lock.withLock {
            defer { outgoing.removeAll() }
            return outgoing
        }
        guard let connection, soup_websocket_connection_get_state(connection) == SOUP_WEBSOCKET_STATE_OPEN else { return }
        for text in texts { soup_websocket_connection_send_text(connection, text) }
    }

    /// Follows the open connection's messages, pongs, errors and close.
    private func listen(on connection: OpaquePointer) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        let message: @convention(c) (OpaquePointer?, Int32, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, _, bytes, data in
            let client = Unmanaged<WebSocketClient>.fromOpaque(data!).takeUnretainedValue()
            var size = 0
            let start = g_bytes_get_data(bytes, &size)
            client.inbox.append(size == 0 ? [] : Array(UnsafeRawBufferPointer(start: start, count: size)))
            client.lastHeard = Date()
        }
        let pong: @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, _, data in
            Unmanaged<WebSocketClient>.fromOpaque(data!).takeUnretainedValue().lastHeard = Date()
        }
        let error: @convention(c) (OpaquePointer?, UnsafeMutablePointer<GError>?, UnsafeMutableRawPointer?) -> Void = { _, error, data in
            let client = Unmanaged<WebSocketClient>.fromOpaque(data!).takeUnretainedValue()
            if client.failure == nil, let error { client.failure = WebSocketFailure.open(error.pointee) }
        }
        let closed: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, data in
            let client = Unmanaged<WebSocketClient>.fromOpaque(data!).takeUnretainedValue()
            if client.failure == nil { client.failure = WebSocketFailure.closed }
        }
        let object = UnsafeMutableRawPointer(connection)
        g_signal_connect_data(object, "message", unsafeBitCast(message, to: GCallback.self), me, nil, GConnectFlags(0))
        g_signal_connect_data(object, "pong", unsafeBitCast(pong, to: GCallback.self), me, nil, GConnectFlags(0))
        g_signal_connect_data(object, "error", unsafeBitCast(error, to: GCallback.self), me, nil, GConnectFlags(0))
        g_signal_connect_data(object, "closed", unsafeBitCast(closed, to: GCallback.self), me, nil, GConnectFlags(0))
    }
}
