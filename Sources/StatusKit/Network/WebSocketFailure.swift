import CSoup
import Foundation
import StreamKit

/// libsoup's errors on a printer's WebSocket in the user's terms: its GErrors' texts are a
/// library's English, so only their domain and code are read, and the answer's HTTP status.
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

    /// Why an open connection failed: libsoup's code is the close code it sends (RFC 6455 §7.4.1).
    static func open(_ error: GError) -> StatusFailure {
        if error.domain == g_io_error_quark() && error.code == Int32(G_IO_ERROR_BUSY.rawValue) {
            return .protocolError(tr("more WebSocket frames than a printer sends, for seconds on end"))
        }
        guard error.domain == soup_websocket_error_quark() else { return closed }
        switch SoupWebsocketCloseCode(rawValue: UInt32(error.code)) {
        case SOUP_WEBSOCKET_CLOSE_BAD_DATA:
            return .protocolError(tr("a WebSocket text message that is not UTF-8"))
        case SOUP_WEBSOCKET_CLOSE_TOO_BIG:
            return .protocolError(String(format: tr("a message over the %d MB limit"), max(1, WebSocketClient.maximumMessage / 1_000_000)))
        default:
            return .protocolError(tr("a WebSocket frame the protocol forbids"))
        }
    }
}
