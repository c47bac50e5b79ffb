import CMosquitto
import Foundation
import StreamKit

/// The opening handshake of a WebSocket client (RFC 6455 §4.1): the HTTP/1.1 Upgrade request with a
/// fresh `Sec-WebSocket-Key`, and the check of the server's answer — `101`, `Upgrade: websocket`,
/// `Connection: Upgrade` and the `Sec-WebSocket-Accept` that key calls for (§4.2.2: base64 of the
/// SHA-1 of the key and the protocol's GUID; SHA-1 is OpenSSL's, already linked for MQTT). The
/// answer's head is read in at most `maximumHead` bytes.
struct WebSocketHandshake {
    /// §1.3's GUID, appended to the key before hashing.
    private static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// The most an answer's head may take: a printer's is a few hundred bytes.
    static let maximumHead = 8 * 1024

    /// Sixteen random bytes, base64 (§4.1).
    let key: String

    init() {
        key = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString()
    }

    /// The Upgrade request for `/` at `host:port` (an IPv6 host bracketed).
    func request(host: String, port: Int) -> [UInt8] {
        let text = "GET / HTTP/1.1\r\nHost: \(StreamSource.bracketed(host)):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\nUser-Agent: Layerwatch\r\n\r\n"
        return Array(text.utf8)
    }

    /// The `Sec-WebSocket-Accept` value a server must answer `key` with.
    static func accept(for key: String) -> String {
        OpenSSLLibrary.ready
        let input = Array((key + guid).utf8)
        var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        _ = SHA1(input, input.count, &digest)
        return Data(digest).base64EncodedString()
    }

    /// Where the head ends in `bytes` (just past its blank line), or nil while it has not ended.
    /// Throws once `bytes` holds more than `maximumHead` without one.
    static func headEnd(in bytes: [UInt8]) throws(StatusFailure) -> Int? {
        let end: [UInt8] = [13, 10, 13, 10]
        if bytes.count >= 4 {
            for index in 0...(bytes.count - 4) where bytes[index] == 13 && Array(bytes[index..<(index + 4)]) == end {
                return index + 4
            }
        }
        guard bytes.count <= maximumHead else { throw .protocolError(tr("the server's answer is not HTTP")) }
        return nil
    }

    /// Checks the answer's head (without its blank line): the switch to the WebSocket protocol with
    /// this handshake's accept value. A 401 or 403 asks for a login a Creality printer does not have,
    /// a 404 is no API there.
    func check(head: [UInt8]) throws(StatusFailure) {
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines.first?.split(separator: " ", maxSplits: 2)
        guard let status, status.count >= 2, status[0].hasPrefix("HTTP/1."), let code = Int(status[1]) else {
            throw .protocolError(tr("the server's answer is not HTTP"))
        }
        switch code {
        case 101: break
        case 401, 403: throw .loginRequired
        case 404: throw .notFound
        default:
            throw .protocolError(String(format: tr("the server answered %ld %@"), code, TerminalText.safe(String(status.count > 2 ? status[2].prefix(80) : ""))))
        }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        guard fields["upgrade"]?.lowercased() == "websocket",
              fields["connection"]?.lowercased().split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "upgrade" }) == true,
              fields["sec-websocket-accept"] == Self.accept(for: key) else {
            throw .protocolError(tr("the server did not accept the WebSocket upgrade"))
        }
    }
}
