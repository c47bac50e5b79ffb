import StreamKit

/// The two ways a Creality printer streams its camera, each named after the family that has it
/// (../shared/PROTOCOLS.md §10; ha_creality_ws const.py `MJPEG_URL_TEMPLATE`, `WEBRTC_URL_TEMPLATE`):
/// a Creality printer is saved with its family, and its own camera's URL is built from the
/// printer's address and the family, as a Bambu printer's is from its model.
public enum CrealityFamily: String, CaseIterable, Sendable {
    /// K1, K1 Max, K1C, K1 SE and the Ender-3 V3 family: MJPEG at `http://HOST:8080/?action=stream`.
    case k1
    /// K2, K2 Plus, K2 Pro and Hi, and any model whose firmware reports WebRTC support: WebRTC with
    /// Creality's signalling at `http://HOST:8000/call/webrtc_local`.
    case k2

    /// The family as the printer dialog's Model row lists it: short enough for the row's list to
    /// show it whole (libadwaita's list cuts an entry past about 20 characters).
    public var title: String {
        switch self {
        case .k1: return tr("K1 or Ender-3 V3")
        case .k2: return tr("K2 or Hi")
        }
    }

    /// Every model of the family, for the words under the Model row.
    public var models: String {
        switch self {
        case .k1: return tr("K1, K1 Max, K1C, K1 SE and Ender-3 V3")
        case .k2: return tr("K2, K2 Plus, K2 Pro and Hi")
        }
    }

    /// The port the printer's camera answers on.
    public var cameraPort: Int {
        switch self {
        case .k1: return 8080
        case .k2: return 8000
        }
    }

    /// How the camera streams, in a few words ("MJPEG on port 8080").
    public var cameraDescription: String {
        switch self {
        case .k1: return String(format: tr("MJPEG on port %ld"), cameraPort)
        case .k2: return String(format: tr("WebRTC on port %ld"), cameraPort)
        }
    }

    /// The URL of the camera of a printer of this family at `host` (an IPv6 address bracketed), in
    /// the form `StreamSource.parse` and go2rtc both read.
    public func cameraURL(host: String) -> String {
        let host = StreamSource.bracketed(host)
        switch self {
        case .k1: return "http://\(host):\(cameraPort)/?action=stream"
        case .k2: return "webrtc:http://\(host):\(cameraPort)/call/webrtc_local#format=creality"
        }
    }
}
