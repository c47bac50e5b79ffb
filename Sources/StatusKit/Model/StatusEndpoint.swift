import Foundation
import StreamKit

/// Where a printer's status comes from and the credentials it needs: parsed once from a status URL
/// (the command line; each family in `StatusFamilies` reads its own scheme) or built from a saved
/// printer with its family's constructor (`.bambu(host:port:accessCode:serial:)`, `.moonraker(…)`…).
public struct StatusEndpoint: Hashable, Sendable {
    let family: any StatusFamily
    public let host: String
    public let port: Int
    /// The access code or API key; nil when there is none.
    public let secret: String?
    /// A Bambu printer's serial number, when known.
    public let serial: String?

    init(family: any StatusFamily, host: String, port: Int, secret: String? = nil, serial: String? = nil) {
        self.family = family
        self.host = host
        self.port = port
        self.secret = secret
        self.serial = serial
    }

    public static func == (lhs: StatusEndpoint, rhs: StatusEndpoint) -> Bool {
        lhs.family.scheme == rhs.family.scheme && lhs.host == rhs.host && lhs.port == rhs.port
            && lhs.secret == rhs.secret && lhs.serial == rhs.serial
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(family.scheme)
        hasher.combine(host)
        hasher.combine(port)
        hasher.combine(secret)
        hasher.combine(serial)
    }

    /// Why a status URL was not understood; never holds the URL's secrets.
    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// Whether `text` names a printer by a family's status scheme (`elegoo://HOST`), not a camera.
    public static func isStatusURL(_ text: String) -> Bool {
        let scheme = URLComponents(string: text.trimmingCharacters(in: .whitespacesAndNewlines))?.scheme?.lowercased()
        return scheme.flatMap(StatusFamilies.family(scheme:)) != nil
    }

    /// Parses a status URL of a family's scheme (`bambu://bblp:CODE@HOST[:PORT]?serial=SERIAL`,
    /// `moonraker://HOST[:PORT][?key=KEY]`…); `secret`, when given (read off the command line), is the
    /// access code or API key instead of the URL's.
    public static func parse(_ text: String, secret: String? = nil) throws(ParseError) -> StatusEndpoint {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
              let rawHost = components.host, !rawHost.isEmpty else {
            throw ParseError(description: String(format: tr("not a status URL: use %@"),
                                                 SpokenList.either(StatusFamilies.all.map(\.urlExample))))
        }
        guard let family = StatusFamilies.family(scheme: scheme) else {
            throw ParseError(description: String(format: tr("unknown status URL scheme %@: use %@"), TerminalText.safe(scheme),
                                                 SpokenList.either(StatusFamilies.all.map { "\($0.scheme)://" })))
        }
        let key = secret ?? components.query(item: "key").flatMap { $0.isEmpty ? nil : $0 }
        return try family.endpoint(components, host: StreamSource.unbracketed(rawHost), key: key, secret: secret)
    }

    /// The status API's port when a printer names none.
    public var usualPort: Int { family.usualPort }

    /// The access code or API key, to scrub from any text (a Creality printer has none).
    public var secrets: [String] { secret.map { [$0] } ?? [] }

    /// `http://HOST:PORT` for the HTTP APIs (IPv6 hosts bracketed); nil for the others.
    public var baseURL: URL? {
        family.speaksHTTP ? URL(string: "http://\(StreamSource.bracketed(host)):\(port)") : nil
    }

    /// Whether the printer has speed profiles (Bambu's silent, standard, sport, ludicrous).
    public var hasSpeedProfiles: Bool { family.hasSpeedProfiles }

    /// Whether Layerwatch can switch this printer's chamber light (Bambu's `ledctrl`, Creality's
    /// `lightSw`; a Creality printer without a light, K1 SE or Ender-3 V3, never reports `lightSw`,
    /// so its toggle stays insensitive).
    public var hasSwitchableLight: Bool { family.hasSwitchableLight }

    /// Whether the status connection turns the printer's own camera on as it connects (an Elegoo
    /// printer's streams only once asked): a camera that failed before then is worth trying again.
    public var turnsCameraOn: Bool { family.turnsCameraOn }

    /// Asks the printer to turn its own camera on where it streams only once asked (an Elegoo
    /// printer's), before the camera is opened without the status connection; nothing for others.
    public func turnCameraOn(stop: StopSignal? = nil) {
        family.turnCameraOn(at: self, stop: stop)
    }

    /// The prints that ended which the printer remembers (Moonraker's job history), newest first;
    /// none for a printer that keeps no history.
    public func printerHistory(stop: StopSignal? = nil) throws(StatusFailure) -> [RememberedPrint] {
        try family.printerHistory(at: self, stop: stop)
    }

    /// Why `layerwatch cameras` has nothing to list for this printer (a Bambu printer has one
    /// camera); nil when its host is asked.
    public var cameraListRefusal: String? { family.cameraListRefusal }

    /// A new connection of the kind this endpoint speaks.
    func makeConnection(log: StatusLog) -> StatusConnection {
        family.makeConnection(to: self, log: log)
    }
}

extension URLComponents {
    /// The first query item called `name` (any case), "" when it has no value.
    func query(item name: String) -> String? {
        queryItems?.first { $0.name.lowercased() == name }.map { $0.value ?? "" }
    }
}

extension StatusEndpoint: CustomStringConvertible {
    /// The endpoint for logs and messages, its code or key masked.
    public var description: String {
        family.description(of: self, host: StreamSource.bracketed(host))
    }
}
