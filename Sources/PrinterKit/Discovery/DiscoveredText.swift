import Foundation
import StreamKit

/// What the family readers share about the untrusted text in a datagram: a value is kept only
/// when it is short and free of control characters, bidirectional controls taken out (a name is
/// shown in sentences), and a sender must be an IPv4 address.
enum DiscoveredText {
    /// Longer values are not a printer's name, model or identifier.
    static let maximumLength = 160

    /// `text` trimmed with its bidirectional controls taken out; nil when empty, too long, or
    /// holding a control character.
    static func cleaned(_ text: String?) -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty, text.count <= maximumLength,
              !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        let cleaned = BidiControls.removed(from: text)
        return cleaned.isEmpty ? nil : cleaned
    }

    /// `text` when it is a plausible identifier: letters, digits, `-` and `_` only, up to `maximumLength`.
    static func identifier(_ text: String?) -> String? {
        guard let text, !text.isEmpty, text.count <= maximumLength,
              text.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") })
        else { return nil }
        return text
    }

    static func isIPv4Address(_ text: String) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1
    }
}
