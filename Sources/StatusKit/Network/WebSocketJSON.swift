import Foundation
import StreamKit

/// The JSON object in a printer's websocket message, or nil (logged) when it is none: RFC 6455
/// would fail the connection on a text message that is not UTF-8 (so `WebSocketClient` hands text
/// over as binary), but one bad message from a printer should cost only itself. Shared by the
/// families whose status is a websocket of JSON messages.
enum WebSocketJSON {
    static func object(_ message: [UInt8], log: StatusLog) -> [String: Any]? {
        guard String(validating: message, as: UTF8.self) != nil else {
            log.info("ignored a message that is not UTF-8")
            return nil
        }
        do {
            return try JSONValue.object(Data(message))
        } catch {
            log.info("ignored a message: \(error.userMessage)")
            return nil
        }
    }
}
