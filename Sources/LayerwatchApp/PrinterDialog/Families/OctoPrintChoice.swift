import PrinterKit
import StatusKit
import StreamKit

/// The OctoPrint family's "Type" choice: its host, port and API key.
extension PrinterChoice {
    static let octoprint = PrinterChoice(
        title: tr("OctoPrint"), kind: .octoprint,
        fields: [.name: FieldText(placeholder: tr("Prusa in the workshop")),
                 .host: FieldText(placeholder: address, hint: tr("The computer running OctoPrint: the address you open it at.")),
                 .apiPort: FieldText(placeholder: String(StatusEndpoint.octoprintPort)),
                 .accessCode: FieldText(title: apiKeyTitle, placeholder: "",
                                        hint: tr("In OctoPrint: Settings → Application Keys, or Settings → API.")),
                 .cameras: FieldText(), .url: cameraURL,
                 .timelapse: FieldText(hint: timelapseHint + " " + tr("OctoPrint does not report layers: choose a picture every few seconds."))])
}
