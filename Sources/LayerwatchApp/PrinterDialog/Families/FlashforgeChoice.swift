import PrinterKit
import StatusKit
import StreamKit

/// The Flashforge family's "Type" choice: its address, serial number and check code (the
/// printer's HTTP API wants both in every request), and the camera its status names.
extension PrinterChoice {
    static let flashforge = PrinterChoice(
        title: tr("Flashforge (Adventurer 5M, AD5X)"), kind: .flashforge,
        fields: [.name: FieldText(placeholder: tr("Adventurer 5M in the workshop")),
                 .host: FieldText(placeholder: address, hint: tr("On the printer: Settings → Network (Wi-Fi).")),
                 .apiPort: FieldText(placeholder: String(StatusEndpoint.flashforgePort)),
                 .accessCode: FieldText(title: tr("Check code"), placeholder: accessCodePlaceholder,
                                        hint: tr("On the printer: Settings → Network. Switch LAN-only mode on there: the check code shows beside it.")),
                 .serial: FieldText(title: tr("Serial number"), placeholder: "SNMOMC9900001",
                                    hint: tr("On the printer: Settings → About, or on the label on its back.")),
                 .cameras: FieldText(), .url: cameraURL, .timelapse: timelapse])
}
