import PrinterKit
import StreamKit

/// The Elegoo family's "Type" choice: the Centauri Carbon's address; its own camera needs nothing
/// more (its status connection turns it on, so Test Connection tries the status first).
extension PrinterChoice {
    static let elegoo = PrinterChoice(
        title: tr("Elegoo Centauri Carbon"), kind: .elegoo,
        fields: [.name: FieldText(placeholder: tr("Centauri Carbon in the workshop")),
                 .host: FieldText(placeholder: address, hint: tr("On the printer's screen: Settings → Network, the IP address. No password is needed.")),
                 .url: cameraURL, .timelapse: timelapse],
        connectionTest: StatusBeforeCameras())
}
