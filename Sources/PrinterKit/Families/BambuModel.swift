/// Bambu Lab printer models as their SSDP announcements name them, with the camera transport each
/// one speaks: the add-printer dialog and discovery both need to know which stream URL to build.
public enum BambuModel: String, CaseIterable, Sendable {
    case x1c = "BL-P001", x1 = "BL-P002", x1e = "C13"
    case p1p = "C11", p1s = "C12", a1mini = "N1", a1 = "N2S"
    case p2s = "N7", h2d = "O1D", h2s = "O1S", h2c = "O1C", x2d = "N6"

    /// How a model's camera is reached.
    public enum Camera: Sendable {
        /// RTSPS on port 322 (X1, P2S, H2, X2 families).
        case rtsps
        /// JPEG frames over TLS on port 6000 (P1 and A1 families).
        case jpegOverTLS
    }

    /// The model as printed on the printer.
    public var displayName: String {
        switch self {
        case .x1c: return "X1 Carbon"
        case .x1: return "X1"
        case .x1e: return "X1E"
        case .p1p: return "P1P"
        case .p1s: return "P1S"
        case .a1mini: return "A1 mini"
        case .a1: return "A1"
        case .p2s: return "P2S"
        case .h2d: return "H2D"
        case .h2s: return "H2S"
        case .h2c: return "H2C"
        case .x2d: return "X2D"
        }
    }

    public var camera: Camera {
        switch self {
        case .p1p, .p1s, .a1mini, .a1: return .jpegOverTLS
        case .x1c, .x1, .x1e, .p2s, .h2d, .h2s, .h2c, .x2d: return .rtsps
        }
    }
}
