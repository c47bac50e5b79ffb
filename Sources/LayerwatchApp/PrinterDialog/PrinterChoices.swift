import PrinterKit
import StatusKit
import StreamKit

/// The printer dialog's "Type" choices, each declared once (see `PrinterChoice`).
extension PrinterChoice {
    /// The drop-down, in order.
    static let all = [bambuRTSPS, bambuJPEG, creality, klipper, octoprint, go2rtc, camera]

    static let bambuRTSPS = PrinterChoice(
        title: tr("Bambu Lab with RTSPS (X1, P2S, H2, X2D)"), kind: .bambuRTSPS(nil),
        fields: [.name: FieldText(placeholder: tr("X1C in the workshop")),
                 .host: FieldText(placeholder: address, hint: tr("On the printer: Settings → Network (WLAN).")),
                 .accessCode: FieldText(title: accessCodeTitle, placeholder: accessCodePlaceholder,
                                        hint: tr("On the printer: Settings → LAN Only → Access Code.") + " "
                                            + tr("Switch LAN Only Liveview on there too: the camera needs it.")),
                 .serial: FieldText(placeholder: "00M00A000000000", hint: serialHint),
                 .timelapse: timelapse])

    static let bambuJPEG = PrinterChoice(
        title: tr("Bambu Lab P1 / A1 (port 6000)"), kind: .bambuJPEG(nil),
        fields: [.name: FieldText(placeholder: tr("P1S in the workshop")),
                 .host: FieldText(placeholder: address, hint: tr("On the printer: Settings → WLAN.")),
                 .accessCode: FieldText(title: accessCodeTitle, placeholder: accessCodePlaceholder,
                                        hint: tr("On the printer: Settings → WLAN → Access Code.")),
                 .serial: FieldText(placeholder: "01S00C000000000", hint: serialHint),
                 .timelapse: timelapse])

    /// Its camera follows the Model row (the family), which Test Connection sets from what the
    /// printer says; the row's hint names the camera (`PrinterDialog`).
    static let creality = PrinterChoice(
        title: tr("Creality (K1, K2, Hi…)"), kind: .creality(.k1),
        fields: [.name: FieldText(placeholder: tr("K1C in the workshop")),
                 .host: FieldText(placeholder: address, hint: tr("The address the printer's screen shows in its network settings.")),
                 .model: FieldText(hint: tr("Test Connection asks the printer which it is.")),
                 .url: cameraURL, .timelapse: timelapse])

    static let klipper = PrinterChoice(
        title: tr("Klipper (Moonraker)"), kind: .klipper,
        fields: [.name: FieldText(placeholder: tr("Voron in the workshop")),
                 .host: FieldText(placeholder: address,
                                  hint: tr("The computer running Klipper: the address you open Mainsail or Fluidd at.")),
                 .apiPort: FieldText(placeholder: String(StatusEndpoint.moonrakerPort)),
                 .accessCode: FieldText(title: apiKeyTitle, placeholder: tr("Optional"),
                                        hint: tr("Only if Moonraker does not trust this computer (its [authorization] section).")),
                 .cameras: FieldText(), .url: cameraURL, .timelapse: timelapse])

    static let octoprint = PrinterChoice(
        title: tr("OctoPrint"), kind: .octoprint,
        fields: [.name: FieldText(placeholder: tr("Prusa in the workshop")),
                 .host: FieldText(placeholder: address, hint: tr("The computer running OctoPrint: the address you open it at.")),
                 .apiPort: FieldText(placeholder: String(StatusEndpoint.octoprintPort)),
                 .accessCode: FieldText(title: apiKeyTitle, placeholder: "",
                                        hint: tr("In OctoPrint: Settings → Application Keys, or Settings → API.")),
                 .cameras: FieldText(), .url: cameraURL,
                 .timelapse: FieldText(hint: timelapseHint + " " + tr("OctoPrint does not report layers: choose a picture every few seconds."))])

    /// go2rtc's API lists its streams; the password is for the listing only.
    static let go2rtc = PrinterChoice(
        title: tr("go2rtc restreamer"), kind: .generic, isGo2RTC: true,
        fields: [.name: FieldText(placeholder: tr("Optional: each tab is named after its stream")),
                 .host: FieldText(placeholder: address, hint: tr("The computer running go2rtc: the address you open its web page at.")),
                 .apiPort: FieldText(placeholder: String(Go2RTCImport.apiPort)),
                 .apiUser: FieldText(placeholder: tr("Optional")),
                 .accessCode: FieldText(title: tr("API password"), placeholder: tr("Optional"),
                                        hint: tr("Only if go2rtc.yaml sets api: username and password. Used to list the streams only, and not saved: the cameras play over RTSP (port 8554) without it.")),
                 .cameras: FieldText()])

    static let camera = PrinterChoice(
        title: tr("Other camera (RTSP, MJPEG, WebRTC or snapshot URL)"), kind: .generic,
        fields: [.name: FieldText(placeholder: tr("Garage camera")), .url: cameraURL])

    // MARK: Texts more than one choice shows

    private static let address = "192.168.1.20"
    private static var accessCodeTitle: String { tr("Access code") }
    private static var accessCodePlaceholder: String { tr("8 characters") }
    private static var apiKeyTitle: String { tr("API key") }
    private static var serialHint: String {
        tr("The printer tells it over the network; type it only if print status says it is missing (Settings → Device on the printer).")
    }
    private static var timelapseHint: String {
        tr("Pictures wait on disk while the print runs; when it ends they become a video in Videos/Layerwatch.")
    }
    private static var timelapse: FieldText { FieldText(hint: timelapseHint) }
    private static var cameraURL: FieldText {
        FieldText(placeholder: "http://192.168.1.30/webcam/?action=stream",
                  hint: tr("A WebRTC camera is webrtc: and its signalling address (WHEP, go2rtc, camera-streamer). An https:// camera must have a certificate this computer trusts."))
    }
}
