import PrinterKit
import StatusKit
import StreamKit

/// The printer dialog's "Type" choices, each declared once (see `PrinterChoice`): the printer
/// families' in their own files (Families/), go2rtc's and a camera by URL's here.
extension PrinterChoice {
    /// The drop-down, in order: the registry of the choices the dialog offers.
    static let all = [bambuRTSPS, bambuJPEG, creality, elegoo, flashforge, klipper, octoprint, prusaLink, go2rtc, camera]

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

    static let address = "192.168.1.20"
    static var accessCodeTitle: String { tr("Access code") }
    static var accessCodePlaceholder: String { tr("8 characters") }
    static var apiKeyTitle: String { tr("API key") }
    static var optionalSerialTitle: String { tr("Serial number (optional)") }
    static var serialHint: String {
        tr("The printer tells it over the network; type it only if print status says it is missing (Settings → Device on the printer).")
    }
    static var timelapseHint: String {
        tr("Pictures wait on disk while the print runs; when it ends they become a video in Videos/Layerwatch.")
    }
    static var timelapse: FieldText { FieldText(hint: timelapseHint) }
    static var cameraURL: FieldText {
        FieldText(placeholder: "http://192.168.1.30/webcam/?action=stream",
                  hint: tr("A WebRTC camera is webrtc: and its signalling address (WHEP, go2rtc, camera-streamer). An https:// camera must have a certificate this computer trusts."))
    }
}
