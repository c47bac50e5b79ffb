import PrinterKit
import StatusKit
import StreamKit

/// What the printer dialog says for each kind of printer: the example name, the address's hint,
/// and for Klipper and OctoPrint the API's usual port and what the key field says.
extension Printer.Kind {
    var namePlaceholder: String {
        switch self {
        case .bambuRTSPS, .bambuJPEG: return tr("X1C in the workshop")
        case .klipper: return tr("Voron in the workshop")
        case .octoprint: return tr("Prusa in the workshop")
        case .generic: return tr("Garage camera")
        }
    }

    var hostHint: String {
        switch self {
        case .klipper: return tr("The computer running Klipper: the address you open Mainsail or Fluidd at.")
        case .octoprint: return tr("The computer running OctoPrint: the address you open it at.")
        case .bambuRTSPS, .bambuJPEG, .generic: return tr("On the printer: Settings → Network (WLAN).")
        }
    }

    /// The port the API has when the field is left empty.
    var usualAPIPort: Int {
        self == .octoprint ? StatusEndpoint.octoprintPort : StatusEndpoint.moonrakerPort
    }

    var apiKeyPlaceholder: String {
        self == .klipper ? tr("Optional") : ""
    }

    var apiKeyHint: String {
        self == .klipper ? tr("Only if Moonraker does not trust this computer (its [authorization] section).")
                         : tr("In OctoPrint: Settings → Application Keys, or Settings → API.")
    }
}

/// What the printer dialog says for its "go2rtc restreamer" choice (no kind of its own: its
/// streams are saved as other cameras).
enum Go2RTCText {
    static var title: String { tr("go2rtc restreamer") }
    static var namePlaceholder: String { tr("Optional: each tab is named after its stream") }
    static var hostHint: String { tr("The computer running go2rtc: the address you open its web page at.") }
    static var passwordHint: String {
        tr("Only if go2rtc.yaml sets api: username and password. Used to list the streams only, and not saved: the cameras play over RTSP (port 8554) without it.")
    }
}
