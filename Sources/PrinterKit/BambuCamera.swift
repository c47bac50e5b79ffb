import Foundation
import StreamKit

/// Builds a Bambu printer's camera source from what a user knows (the printer's address and the LAN
/// access code on its screen), so nobody has to type `rtsps://bblp:…@…:322/streaming/live/1` by hand.
public enum BambuCamera {
    /// Why a host or access code was not accepted; each message says what to fix.
    public enum InputError: Error, Equatable, CustomStringConvertible {
        case emptyHost
        case invalidHost(String)
        case accessCodeLength(Int)
        case accessCodeCharacters

        public var description: String {
            switch self {
            case .emptyHost:
                return "Enter the printer's IP address (Settings → Network on the printer)."
            case .invalidHost(let host):
                return "\"\(host)\" is not an IP address or host name."
            case .accessCodeLength(let count):
                return "The access code has 8 characters; this one has \(count)."
            case .accessCodeCharacters:
                return "The access code has only letters and digits."
            }
        }
    }

    /// The RTSPS stream of an X1/P2S/H2-family printer.
    public static func rtspsSource(host: String, accessCode: String) throws -> StreamSource {
        let host = try validatedHost(host)
        let code = try validatedAccessCode(accessCode)
        let bracketed = host.contains(":") ? "[\(host)]" : host
        return try StreamSource.parse("rtsps://bblp:\(code)@\(bracketed):322/streaming/live/1")
    }

    static func validatedHost(_ text: String) throws -> String {
        let host = text.trimmingCharacters(in: .whitespaces)
        guard !host.isEmpty else { throw InputError.emptyHost }
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ".-:"))
        guard host.unicodeScalars.allSatisfy(allowed.contains), !host.hasPrefix("-") else {
            throw InputError.invalidHost(host)
        }
        return host
    }

    static func validatedAccessCode(_ text: String) throws -> String {
        let code = text.trimmingCharacters(in: .whitespaces)
        guard code.count == 8 else { throw InputError.accessCodeLength(code.count) }
        guard code.unicodeScalars.allSatisfy(CharacterSet.alphanumerics.contains) else {
            throw InputError.accessCodeCharacters
        }
        return code
    }
}
