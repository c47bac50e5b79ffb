import CSoup
import CWebSocketGuard
import Foundation
import StreamKit

/// libsoup's and its guard's errors on a printer's WebSocket in the user's terms: libsoup's texts
/// are a library's English, so only their domain and code are read, and the answer's HTTP status.
enum WebSocketFailure {
    /// The end of an open connection the server closed.
    static let closed = StatusFailure.protocolError(tr("the printer closed the connection"))

    /// Why the handshake failed, from its error and the answer to `request` (if one came).
    static func handshake(_ error: GError, answer request: OpaquePointer?) -> StatusFailure {
        let status = request.map { Int(soup_message_get_status($0).rawValue) } ?? 0
        if error.domain == soup_websocket_error_quark() || status >= 200 {
            switch status {
            case 101: return .protocolError(tr("the server did not accept the WebSocket upgrade"))
            case 401, 403: return .loginRequired
            case 404: return .notFound
            case 200...:
                let reason = request.flatMap { soup_message_get_reason_phrase($0) }.map { String(cString: $0) } ?? ""
                return .protocolError(String(format: tr("the server answered %ld %@"), status, TerminalText.safe(String(reason.prefix(80)))))
            default: break
            }
        }
        if error.domain == soup_session_error_quark() { return .protocolError(tr("the server's answer is not HTTP")) }
        if error.domain == g_io_error_quark() {
            switch GIOErrorEnum(rawValue: UInt32(error.code)) {
            case G_IO_ERROR_CONNECTION_REFUSED: return .refused
            case G_IO_ERROR_CONNECTION_CLOSED, G_IO_ERROR_BROKEN_PIPE, G_IO_ERROR_PARTIAL_INPUT: return closed
            default: break
            }
        }
        // Unreachable, not resolved, cancelled at the deadline.
        return .timeout
    }

    /// Why an open connection failed: the guard's refusal (CWebSocketGuard), or libsoup's code,
    /// the close code it sends (RFC 6455 §7.4.1).
    static func open(_ error: GError) -> StatusFailure {
        if error.domain == lw_websocket_guard_error_quark() { return refused(error) }
        guard error.domain == soup_websocket_error_quark() else { return closed }
        return .protocolError(tr("a WebSocket frame the protocol forbids"))
    }

    /// What the guard refused.
    private static func refused(_ error: GError) -> StatusFailure {
        switch LwWebsocketGuardError(rawValue: UInt32(error.code)) {
        case LW_WEBSOCKET_GUARD_RESERVED_BITS: return .protocolError(tr("a WebSocket frame with reserved bits set"))
        case LW_WEBSOCKET_GUARD_UNKNOWN_KIND: return .protocolError(tr("a WebSocket frame of an unknown kind"))
        case LW_WEBSOCKET_GUARD_MASKED: return .protocolError(tr("a masked WebSocket frame from the server"))
        case LW_WEBSOCKET_GUARD_BAD_CONTROL: return .protocolError(tr("a WebSocket control frame that is too long or fragmented"))
        case LW_WEBSOCKET_GUARD_NESTED_MESSAGE: return .protocolError(tr("a new WebSocket message inside a fragmented one"))
        case LW_WEBSOCKET_GUARD_ORPHAN_CONTINUATION: return .protocolError(tr("a WebSocket continuation frame without a message"))
        default:
            // The message's size is the error's text, in decimal (the guard's own, never shown).
            let size = error.message.flatMap { UInt64(String(cString: $0)) } ?? 0
            return .protocolError(String(format: tr("a message of %d bytes, over the %d MB limit"), Int(min(size, UInt64(Int.max))),
                                         max(1, WebSocketClient.maximumMessage / 1_000_000)))
        }
    }
}
