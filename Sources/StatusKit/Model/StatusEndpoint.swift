import Foundation
import StreamKit

/// Where a printer's status comes from and the credentials it needs: parsed once from a
/// `bambu://`, `moonraker://`, `octoprint://` or `creality://` URL (the command line) or built from a saved printer.
public enum StatusEndpoint: Hashable, Sendable {
    /// A Bambu printer's LAN MQTT broker (TLS, user `bblp`, password = access code).
    case bambu(host: String, port: Int, accessCode: String, serial: String?)
    /// Klipper's Moonraker API; the key is optional (trusted clients need none).
    case moonraker(host: String, port: Int, apiKey: String?)
    /// OctoPrint's REST API, which always wants a key.
    case octoprint(host: String, port: Int, apiKey: String)
    /// A Creality printer's LAN websocket (K1, K2, Hi, Ender-3 V3 families), which wants no login.
    case creality(host: String, port: Int)
    /// The demo printer's simulated print (`DemoConnection`): no network, nothing to configure.
    case demo

    public static let bambuPort = 8883
    public static let moonrakerPort = 7125
    public static let octoprintPort = 80
    /// Creality Print's and ha_creality_ws's websocket port (const.py `WS_PORT`).
    public static let crealityPort = 9999

    /// Why a status URL was not understood; never holds the URL's secrets.
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// Parses `bambu://bblp:CODE@HOST[:PORT]?serial=SERIAL`, `moonraker://HOST[:PORT][?key=KEY]`,
    /// `octoprint://HOST[:PORT]?key=KEY` or `creality://HOST[:PORT]`; `secret`, when given (read off the command line), is the
    /// access code or API key instead of the URL's.
    public static func parse(_ text: String, secret: String? = nil) throws(ParseError) -> StatusEndpoint {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
              let rawHost = components.host, !rawHost.isEmpty else {
            throw ParseError(description: tr("not a status URL: use bambu://bblp:CODE@HOST?serial=SERIAL, moonraker://HOST, octoprint://HOST?key=KEY or creality://HOST"))
        }
        let host = StreamSource.unbracketed(rawHost)
        let query = Dictionary((components.queryItems ?? []).map { ($0.name.lowercased(), $0.value ?? "") },
                               uniquingKeysWith: { first, _ in first })
        let key = secret ?? query["key"].flatMap { $0.isEmpty ? nil : $0 }
        switch scheme {
        case "bambu":
            guard let code = secret ?? components.password?.removingPercentEncoding ?? components.password, !code.isEmpty else {
                throw ParseError(description: tr("a bambu:// URL needs the access code: bambu://bblp:CODE@HOST?serial=SERIAL"))
            }
            let serial = query["serial"].flatMap { $0.isEmpty ? nil : $0 }
            return .bambu(host: host, port: components.port ?? bambuPort, accessCode: code, serial: serial)
        case "moonraker", "klipper":
            return .moonraker(host: host, port: components.port ?? moonrakerPort, apiKey: key)
        case "octoprint":
            guard let key else {
                throw ParseError(description: tr("an octoprint:// URL needs the API key: octoprint://HOST?key=KEY"))
            }
            return .octoprint(host: host, port: components.port ?? octoprintPort, apiKey: key)
        case "creality":
            return .creality(host: host, port: components.port ?? crealityPort)
        default:
            throw ParseError(description: String(format: tr("unknown status URL scheme %@: use bambu://, moonraker://, octoprint:// or creality://"),
                                                 TerminalText.safe(scheme)))
        }
    }

    /// The access code or API key, to scrub from any text (a Creality printer has none).
    public var secrets: [String] {
        switch self {
        case .bambu(_, _, let code, _): return [code]
        case .moonraker(_, _, let key): return key.map { [$0] } ?? []
        case .octoprint(_, _, let key): return [key]
        case .creality, .demo: return []
        }
    }

    public var host: String {
        switch self {
        case .bambu(let host, _, _, _), .moonraker(let host, _, _), .octoprint(let host, _, _), .creality(let host, _): return host
        case .demo: return "demo"
        }
    }

    /// `http://HOST:PORT` for the HTTP APIs (IPv6 hosts bracketed); nil for Bambu, Creality and the demo.
    public var baseURL: URL? {
        switch self {
        case .bambu, .creality, .demo: return nil
        case .moonraker(let host, let port, _), .octoprint(let host, let port, _):
            return URL(string: "http://\(StreamSource.bracketed(host)):\(port)")
        }
    }
}

extension StatusEndpoint: CustomStringConvertible {
    /// The endpoint for logs and messages, its code or key masked.
    public var description: String {
        let host = StreamSource.bracketed(self.host)
        switch self {
        case .bambu(_, let port, _, let serial):
            return "bambu://bblp:\(Redactor.mask)@\(host):\(port)" + (serial.map { "?serial=\($0)" } ?? "")
        case .moonraker(_, let port, let key):
            return "moonraker://\(host):\(port)" + (key == nil ? "" : "?key=\(Redactor.mask)")
        case .octoprint(_, let port, _):
            return "octoprint://\(host):\(port)?key=\(Redactor.mask)"
        case .creality(_, let port):
            return "creality://\(host):\(port)"
        case .demo:
            return "demo:"
        }
    }
}
