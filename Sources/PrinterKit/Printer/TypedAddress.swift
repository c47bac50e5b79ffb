import Foundation

/// What people paste into an address field, split into the address and the port: the URL a web
/// interface is opened at (`http://127.0.0.1:5000/`, `http://[::1]:5000/`), a `host:port` or
/// `[IPv6]:port`. Without it the port stayed in the address, which no name server resolves. A bare
/// IPv6 address (several colons, no brackets) is an address, not a host and a port.
public struct TypedAddress: Equatable, Sendable {
    public let host: String
    /// The port the text named, if it named one (digits only; its range is the port field's check).
    public let port: String?

    /// The address and port in `text`; nil when there is nothing to split off (a plain address, an
    /// empty field) or when what follows the address is no port, left for validation to name.
    public init?(splitting text: String) {
        var rest = Substring(text.trimmingCharacters(in: .whitespaces))
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        if let end = rest.firstIndex(where: { "/?#".contains($0) }) { rest = rest[..<end] }
        if let login = rest.lastIndex(of: "@") { rest = rest[rest.index(after: login)...] }
        let host: Substring, port: Substring?
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return nil }
            port = after.isEmpty ? nil : after.dropFirst()
        } else if rest.filter({ $0 == ":" }).count == 1, let colon = rest.firstIndex(of: ":") {
            host = rest[..<colon]
            port = rest[rest.index(after: colon)...]
        } else {
            host = rest
            port = nil
        }
        let digits = port.flatMap { $0.isEmpty ? nil : String($0) }
        guard digits?.allSatisfy(\.isASCII) ?? true, digits?.allSatisfy(\.isNumber) ?? true else { return nil }
        guard !host.isEmpty, host != Substring(text.trimmingCharacters(in: .whitespaces)) || digits != nil else { return nil }
        self.host = String(host)
        self.port = digits
    }
}
