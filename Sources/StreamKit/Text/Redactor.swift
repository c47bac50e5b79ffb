import Foundation

/// Scrubs access codes out of any text before it reaches a log, an error message, a title or a test's
/// output. Printers' LAN access codes are passwords: they must never be shown.
public struct Redactor: Sendable {
    public static let mask = "***"
    /// Shorter secrets are masked only where a URL carries them (its password, a query parameter):
    /// masked as free text, the `1` of `auth=1` would turn every 1 in a message into `***`.
    public static let minimumFreeTextSecret = 4
    private let secrets: [String]

    public init(secrets: [String]) {
        self.secrets = secrets.filter { $0.count >= Self.minimumFreeTextSecret }
    }

    /// Replaces every known secret of at least `minimumFreeTextSecret` characters (plain or
    /// percent-encoded), any URL password and any credential query parameter with `***`.
    public func redact(_ text: String) -> String {
        var result = text
        for secret in secrets {
            result = result.replacingOccurrences(of: secret, with: Self.mask)
            if let encoded = secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics), encoded != secret {
                result = result.replacingOccurrences(of: encoded, with: Self.mask)
            }
        }
        return Self.scrubQueryCodes(Self.scrubUserInfo(result))
    }

    /// The query parameters cameras and restreamers carry credentials in (`code=` is how
    /// bambu-jpeg:// URLs carry the access code), matched whatever their case.
    public static let secretQueryNames = [
        "code", "password", "passwd", "pass", "pwd", "pw", "psw", "secret", "client_secret",
        "token", "access_token", "auth", "auth_token", "authtoken", "key", "apikey", "api_key", "api-key",
        "sig", "signature", "credentials",
    ]

    private static let secretQuery: NSRegularExpression? = {
        let names = secretQueryNames.map(NSRegularExpression.escapedPattern(for:)).joined(separator: "|")
        return try? NSRegularExpression(pattern: "([?&;](?:\(names))=)[^&;#\\s]*", options: [.caseInsensitive])
    }()

    /// Masks the value of every credential-carrying query parameter (`secretQueryNames`).
    public static func scrubQueryCodes(_ text: String) -> String {
        guard text.contains("="), let regex = secretQuery else { return text }
        let range = NSRange(text.startIndex..., in: text)
        return regex.stringByReplacingMatches(in: text, range: range, withTemplate: "$1\(mask)")
    }

    /// Masks the password part of every `scheme://user:password@` in a text, known secret or not.
    public static func scrubUserInfo(_ text: String) -> String {
        guard text.contains("@") else { return text }
        let pattern = #"([A-Za-z][A-Za-z0-9+.\-]*://[^/\s:@]*:)[^/\s@]*@"#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return text }
        let range = NSRange(text.startIndex..., in: text)
        return regex.stringByReplacingMatches(in: text, range: range, withTemplate: "$1\(mask)@")
    }
}
