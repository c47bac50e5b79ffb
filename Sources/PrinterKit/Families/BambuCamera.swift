import Foundation
import StreamKit

/// Builds a Bambu printer's camera source from what a user knows (the printer's address and the LAN
/// access code on its screen), so nobody has to type `rtsps://bblp:…@…:322/streaming/live/1` by hand.
public enum BambuCamera {
    /// The one user a Bambu printer's LAN camera has; its password is the access code.
    static let user = "bblp"

    /// Why a host or access code was not accepted; each message says what to fix.
    public enum InputError: Error, Equatable, CustomStringConvertible {
        case emptyHost
        case invalidHost(String)
        case emptyAccessCode
        case accessCodeLength(Int)
        case accessCodeCharacters

        public var description: String {
            switch self {
            case .emptyHost:
                return tr("Enter the printer's IP address (Settings → Network on the printer).")
            case .invalidHost(let host):
                return String(format: tr("\"%@\" is not an IP address or host name."), host)
            case .emptyAccessCode:
                return tr("Enter the 8-character access code shown in the printer's network settings (LAN mode).")
            case .accessCodeLength(let count):
                return String(format: tr("The access code has 8 characters; this one has %ld."), count)
            case .accessCodeCharacters:
                return tr("The access code has only letters A–Z and digits.")
            }
        }
    }

    /// The RTSPS stream of an X1/P2S/H2-family printer.
    public static func rtspsSource(host: String, accessCode: String) throws -> StreamSource {
        let host = try validatedHost(host)
        let code = try validatedAccessCode(accessCode)
        return try StreamSource.parse("rtsps://\(user):\(code)@\(StreamSource.bracketed(host)):322/streaming/live/1")
    }

    /// The address of a P1/A1 printer's camera, JPEG frames over TLS on port 6000:
    /// `bambu-jpeg://HOST:6000?code=CODE`, the form `StreamSource.parse` takes for that transport.
    public static func jpegURL(host: String, accessCode: String) throws -> String {
        let host = try validatedHost(host)
        let code = try validatedAccessCode(accessCode)
        return "bambu-jpeg://\(StreamSource.bracketed(host)):6000?code=\(code)"
    }

    /// The JPEG-over-TLS camera of a P1/A1 printer (see `jpegURL`).
    public static func jpegSource(host: String, accessCode: String) throws -> StreamSource {
        try StreamSource.parse(jpegURL(host: host, accessCode: accessCode))
    }

    static func validatedHost(_ text: String) throws -> String {
        let host = text.trimmingCharacters(in: .whitespaces)
        guard !host.isEmpty else { throw InputError.emptyHost }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-:"))
        // One colon is a port left in the address (an IPv6 address has several).
        guard host.unicodeScalars.allSatisfy(allowed.contains), !host.hasPrefix("-"), host.filter({ $0 == ":" }).count != 1 else {
            throw InputError.invalidHost(host)
        }
        return host
    }

    static func validatedAccessCode(_ text: String) throws -> String {
        let code = text.trimmingCharacters(in: .whitespaces)
        guard !code.isEmpty else { throw InputError.emptyAccessCode }
        guard code.count == 8 else { throw InputError.accessCodeLength(code.count) }
        guard code.unicodeScalars.allSatisfy({ $0.isASCII && CharacterSet.alphanumerics.contains($0) }) else {
            throw InputError.accessCodeCharacters
        }
        return code
    }
}
