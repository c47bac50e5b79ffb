import PrinterKit
import StatusKit
import StreamKit

/// The status row Test Connection shows for a Creality printer, before its cameras': what the
/// printer said it is, and the Model it chose from that.
enum CrealityTestText {
    /// `model`: the model the printer named (nil: none Layerwatch knows); `webRTC`: its firmware
    /// says its camera streams over WebRTC; `chosen`: the family the Model row was set to, when the
    /// answer changed it.
    static func status(model: CrealityModel?, webRTC: Bool, chosen: CrealityFamily?) -> String {
        var text = switch (model, webRTC) {
        case (let model?, false): String(format: tr("Status connected: the printer says it is a Creality %@."), model.displayName)
        case (let model?, true):
            String(format: tr("Status connected: the printer says it is a Creality %@ whose camera streams over WebRTC."), model.displayName)
        case (nil, true): tr("Status connected: the printer says its camera streams over WebRTC.")
        case (nil, false): tr("Status connected, but the printer did not say which model it is: the Model chosen is kept.")
        }
        if let chosen {
            text += " " + String(format: tr("Model set to “%@”: its camera is %@."), chosen.title, chosen.cameraDescription)
        }
        return text
    }
}
