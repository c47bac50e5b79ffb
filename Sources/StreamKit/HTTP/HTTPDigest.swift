import CFFmpeg
import Foundation

/// HTTP Digest access authentication (RFC 7616) as printers speak it: MD5 without `qop`, the
/// RFC 2069 form PrusaLink's firmware answers (realm "Printer API", nonces that live minutes and
/// come back `stale=true` once expired). One `HTTPDigest` serves one printer: it keeps the last
/// challenge, so each request carries its answer at once rather than after a 401 of its own, and
/// `HTTPFetch` retries a request once when a first or stale challenge comes. The password is only
/// ever hashed into the header; it is sent as it is only to a server whose 401 offers no Digest
/// login at all, in the key header given (`keyHeader`: PrusaLink also takes the password as
/// `X-Api-Key`, ../shared/PROTOCOLS.md §12).
public final class HTTPDigest: @unchecked Sendable {
    /// A server's challenge: what the answer hashes in.
    struct Challenge: Equatable {
        let realm: String
        let nonce: String
        let opaque: String?
        let stale: Bool
    }

    let user: String
    /// The password, for the redaction of messages.
    public let password: String
    /// The header the password goes in to a server that offers no Digest login; nil: none.
    let keyHeader: String?
    private let lock = NSLock()
    private var challenge: Challenge?
    private var sendsKey = false

    public init(user: String, password: String, keyHeader: String? = nil) {
        self.user = user
        self.password = password
        self.keyHeader = keyHeader
    }

    /// The `Authorization` header for `method` on `uri` (the request target, path and query), from
    /// the last challenge (or the key header, for a server without Digest); nil before one came.
    func authorization(method: String, uri: String) -> (String, String)? {
        let (challenge, sendsKey) = lock.withLock { (self.challenge, self.sendsKey) }
        if sendsKey, let keyHeader { return (keyHeader, password) }
        guard let challenge else { return nil }
        let first = Self.md5("\(user):\(challenge.realm):\(password)")
        let second = Self.md5("\(method):\(uri)")
        let response = Self.md5("\(first):\(challenge.nonce):\(second)")
        var fields = ["username=\(Self.quoted(user))", "realm=\(Self.quoted(challenge.realm))",
                      "nonce=\(Self.quoted(challenge.nonce))", "uri=\(Self.quoted(uri))",
                      "algorithm=MD5", "response=\"\(response)\""]
        if let opaque = challenge.opaque { fields.append("opaque=\(Self.quoted(opaque))") }
        return ("Authorization", "Digest " + fields.joined(separator: ", "))
    }

    /// Takes the challenges of a 401 (its `WWW-Authenticate` values) after a request that carried
    /// an answer (`answered`) or not; true when the request is worth sending once more: a first
    /// challenge, one saying only the nonce expired, or — the first time — none at all where there
    /// is a key header to try. A 401 to an answer to a fresh nonce, or to the key, means the user
    /// or password is wrong.
    func accept(_ headers: [String], answered: Bool) -> Bool {
        guard let challenge = headers.lazy.compactMap(Self.challenge).first else {
            return lock.withLock {
                guard keyHeader != nil, !sendsKey else { return false }
                sendsKey = true
                return true
            }
        }
        lock.withLock { (self.challenge, sendsKey) = (challenge, false) }
        return !answered || challenge.stale
    }

    /// A `Digest` challenge's fields (`realm`, `nonce`, `opaque`, `stale`); nil for another scheme,
    /// one without a nonce, or one asking for an algorithm other than MD5.
    static func challenge(_ header: String) -> Challenge? {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.prefix(7).lowercased() == "digest " else { return nil }
        let fields = parameters(String(trimmed.dropFirst(7)))
        guard let nonce = fields["nonce"], !nonce.isEmpty, (fields["algorithm"] ?? "MD5").uppercased() == "MD5" else { return nil }
        return Challenge(realm: fields["realm"] ?? "", nonce: nonce, opaque: fields["opaque"],
                         stale: fields["stale"]?.lowercased() == "true")
    }

    /// `name=value` and `name="quoted value"` pairs separated by commas, names lowercased; at most
    /// 20 of them, each value at most 1 024 characters (a challenge is a line of a bounded head).
    private static func parameters(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        var rest = Substring(text)
        while fields.count < 20 {
            rest = rest.drop { $0 == " " || $0 == "," || $0 == "\t" }
            guard let equals = rest.firstIndex(of: "=") else { break }
            let name = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            rest = rest[rest.index(after: equals)...].drop { $0 == " " }
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                var escaped = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if escaped { value.append(character); escaped = false } else if character == "\\" { escaped = true }
                    else if character == "\"" { break } else { value.append(character) }
                }
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<end].trimmingCharacters(in: .whitespaces)
                rest = rest[end...]
            }
            if !name.isEmpty, value.count <= 1024 { fields[name] = value }
        }
        return fields
    }

    private static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// The MD5 of `text`'s UTF-8, in lowercase hex (FFmpeg's `av_md5_sum`).
    static func md5(_ text: String) -> String {
        var digest = [UInt8](repeating: 0, count: 16)
        let bytes = Array(text.utf8)
        bytes.withUnsafeBufferPointer { av_md5_sum(&digest, $0.baseAddress, $0.count) }
        return digest.map { String(format: "%02x", $0) }.joined()
    }
}
