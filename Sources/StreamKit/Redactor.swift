import Foundation

/// Scrubs access codes out of any text before it reaches a log, an error message, a title or a test's
/// output. Printers' LAN access codes are passwords: they must never be shown.
public struct Redactor: Sendable {
    public static let mask = "***"
    private let secrets: [String]

    public init(secrets: [String]) {
        self.secrets = secrets.filter { !$0.isEmpty }
    }

    /// Replaces every known secret (plain or percent-encoded) and any URL password with `***`.
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

    /// Masks the value of every `code=` query parameter (how bambu-jpeg:// URLs carry the code).
    public static func scrubQueryCodes(_ text: String) -> String {
        guard text.contains("code=") else { return text }
        guard let regex = try? NSRegularExpression(pattern: #"([?&]code=)[^&#\s]*"#) else { return text }
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
