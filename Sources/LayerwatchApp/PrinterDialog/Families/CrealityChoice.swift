import PrinterKit
import StreamKit

/// The Creality family's "Type" choice.
extension PrinterChoice {
    /// Its camera follows the Model row (the family), which Test Connection sets from what the
    /// printer says (`CrealityConnectionTest`); the row's hint names the camera.
    static let creality = PrinterChoice(
        title: tr("Creality (K1, K2, Hi…)"), kind: .creality(.k1),
        fields: [.name: FieldText(placeholder: tr("K1C in the workshop")),
                 .host: FieldText(placeholder: address, hint: tr("The address the printer's screen shows in its network settings.")),
                 .model: FieldText(hint: tr("Test Connection asks the printer which it is.")),
                 .url: cameraURL, .timelapse: timelapse],
        variants: CrealityFamily.allCases.map { family in
            Variant(raw: family.rawValue, title: family.title,
                    hint: String(format: tr("%@: its camera is %@."), family.models, family.cameraDescription),
                    ownCamera: String(format: tr("Its own camera, %@"), family.cameraDescription))
        },
        connectionTest: CrealityConnectionTest())
}
