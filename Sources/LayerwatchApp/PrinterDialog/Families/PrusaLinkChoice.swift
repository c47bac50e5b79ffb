import PrinterKit
import StatusKit
import StreamKit

/// The Prusa family's "Type" choice (MK4, XL, Core One, MINI with PrusaLink): its address, port
/// and the PrusaLink password the printer shows; its camera is a URL (a Buddy3D camera's) or none.
extension PrinterChoice {
    static let prusaLink = PrinterChoice(
        title: tr("Prusa MK4, XL, Core One (PrusaLink)"), kind: .prusaLink,
        fields: [.name: FieldText(placeholder: tr("Core One in the workshop")),
                 .host: FieldText(placeholder: address, hint: tr("On the printer: Settings → Network shows its address.")),
                 .apiPort: FieldText(placeholder: String(StatusEndpoint.prusaLinkPort)),
                 .accessCode: FieldText(title: tr("Password"), placeholder: "",
                                        hint: tr("On the printer: Settings → Network → PrusaLink shows the password (the user name is “maker”).")),
                 .cameras: FieldText(),
                 .url: FieldText(placeholder: "rtsp://192.168.1.31/live",
                                 hint: tr("PrusaLink has no camera. A Buddy3D camera streams at rtsp://CAMERA/live once RTSP is on in its settings; without a camera, the print's thumbnail is shown.")),
                 .timelapse: timelapse])
}
