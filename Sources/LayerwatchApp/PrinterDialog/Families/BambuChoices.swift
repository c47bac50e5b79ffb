import PrinterKit
import StreamKit

/// The Bambu Lab family's "Type" choices, one per camera transport (the model, when discovered or
/// edited, picks between them).
extension PrinterChoice {
    static let bambuRTSPS = PrinterChoice(
        title: tr("Bambu Lab with RTSPS (X1, P2S, H2, X2D)"), kind: .bambuRTSPS(nil),
        fields: [.name: FieldText(placeholder: tr("X1C in the workshop")),
                 .host: FieldText(placeholder: address, hint: tr("On the printer: Settings → Network (WLAN).")),
                 .accessCode: FieldText(title: accessCodeTitle, placeholder: accessCodePlaceholder,
                                        hint: tr("On the printer: Settings → LAN Only → Access Code.") + " "
                                            + tr("Switch LAN Only Liveview on there too: the camera needs it.")),
                 .serial: FieldText(title: optionalSerialTitle, placeholder: "00M00A000000000", hint: serialHint),
                 .timelapse: timelapse])

    static let bambuJPEG = PrinterChoice(
        title: tr("Bambu Lab P1 / A1 (port 6000)"), kind: .bambuJPEG(nil),
        fields: [.name: FieldText(placeholder: tr("P1S in the workshop")),
                 .host: FieldText(placeholder: address, hint: tr("On the printer: Settings → WLAN.")),
                 .accessCode: FieldText(title: accessCodeTitle, placeholder: accessCodePlaceholder,
                                        hint: tr("On the printer: Settings → WLAN → Access Code.")),
                 .serial: FieldText(title: optionalSerialTitle, placeholder: "01S00C000000000", hint: serialHint),
                 .timelapse: timelapse])
}
