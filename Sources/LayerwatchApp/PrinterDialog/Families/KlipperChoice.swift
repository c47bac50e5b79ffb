import PrinterKit
import StatusKit
import StreamKit

/// The Klipper family's "Type" choice: Moonraker's host, port and optional key.
extension PrinterChoice {
    static let klipper = PrinterChoice(
        title: tr("Klipper (Moonraker)"), kind: .klipper,
        fields: [.name: FieldText(placeholder: tr("Voron in the workshop")),
                 .host: FieldText(placeholder: address,
                                  hint: tr("The computer running Klipper: the address you open Mainsail or Fluidd at.")),
                 .apiPort: FieldText(placeholder: String(StatusEndpoint.moonrakerPort)),
                 .accessCode: FieldText(title: apiKeyTitle, placeholder: tr("Optional"),
                                        hint: tr("Only if Moonraker does not trust this computer (its [authorization] section).")),
                 .cameras: FieldText(), .url: cameraURL, .timelapse: timelapse])
}
