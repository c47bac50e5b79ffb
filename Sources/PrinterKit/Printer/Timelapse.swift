/// When a printer's timelapse takes a picture while it prints: at every layer change (printers
/// that report layers: Bambu's `layer_num`, Moonraker's `current_layer`), or every so many seconds.
/// Written in `printers.json` as `"timelapse": "layer"` or `"timelapse": "30s"`.
public enum Timelapse: Hashable, Sendable, Codable, CustomStringConvertible {
    case perLayer
    case every(seconds: Int)

    /// The intervals the dialog offers, in seconds.
    public static let intervals = [10, 30, 60]

    /// From its text in the file; nil (no timelapse) for anything else.
    public init?(text: String) {
        if text == "layer" {
            self = .perLayer
        } else if text.hasSuffix("s"), let seconds = Int(text.dropLast()), (1...3600).contains(seconds) {
            self = .every(seconds: seconds)
        } else {
            return nil
        }
    }

    public var description: String {
        switch self {
        case .perLayer: return "layer"
        case .every(let seconds): return "\(seconds)s"
        }
    }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let timelapse = Timelapse(text: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a timelapse: \(text)"))
        }
        self = timelapse
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
