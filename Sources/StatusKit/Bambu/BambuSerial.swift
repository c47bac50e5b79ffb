import Foundation

/// What a Bambu serial number looks like (`01P00A451601106`): at most 64 ASCII letters and digits.
/// A serial from the network (an SSDP announcement, a printer's certificate) is checked against it
/// before it names a printer or an MQTT topic.
public enum BambuSerial {
    public static func isPlausible(_ text: String) -> Bool {
        text.count <= 64 && text.unicodeScalars.allSatisfy { $0.isASCII && CharacterSet.alphanumerics.contains($0) }
    }
}
