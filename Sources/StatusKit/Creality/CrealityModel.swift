/// The Creality models Layerwatch recognises in what a printer says of itself (`CrealityIdentity`):
/// the printer dialog's Test Connection names the model it found and sets the Model row from it
/// (PrinterKit adds the family whose camera each has), and sending a file asks it where the
/// printer keeps its files (`CrealityUpload`). Names and board codes as ha_creality_ws matches them
/// (utils.py `ModelDetection`): a name in `model` ("K1C", "CR-K1 Max", "Ender-3 V3 KE"), or a
/// board code in `model` or `modelVersion` (K2 firmware: F021 K2, F008 K2 Plus, F012 K2 Pro; F018
/// Hi; F001, F002, F005 the Ender-3 V3, V3 Plus, V3 KE).
public enum CrealityModel: Sendable {
    case k1, k1Max, k1C, k1SE, ender3V3, ender3V3Plus, ender3V3KE, k2, k2Plus, k2Pro, hi

    /// The model as printed on the printer.
    public var displayName: String {
        switch self {
        case .k1: return "K1"
        case .k1Max: return "K1 Max"
        case .k1C: return "K1C"
        case .k1SE: return "K1 SE"
        case .ender3V3: return "Ender-3 V3"
        case .ender3V3Plus: return "Ender-3 V3 Plus"
        case .ender3V3KE: return "Ender-3 V3 KE"
        case .k2: return "K2"
        case .k2Plus: return "K2 Plus"
        case .k2Pro: return "K2 Pro"
        case .hi: return "Hi"
        }
    }

    /// Where the printer keeps the files sent to it, as `opGcodeFile` names them: the K1 family's
    /// and the Ender-3 V3's Klipper tree (OrcaSlicer's CrealityPrint host, SoftFever/OrcaSlicer
    /// src/slic3r/Utils/CrealityPrint.cpp `start_print`). Nil for the models Layerwatch sends
    /// nothing to: the K2 family keeps its files elsewhere (`/mnt/UDISK/printer_data/gcodes/`) and
    /// starts a print on its CFS only with the filament slots mapped for it (`colorMatch`); the Hi,
    /// a board of the K2's firmware line (F018) whose Combo has a CFS too, is not known to differ.
    var gcodeFolder: String? {
        switch self {
        case .k1, .k1Max, .k1C, .k1SE, .ender3V3, .ender3V3Plus, .ender3V3KE: return "/usr/data/printer_data/gcodes/"
        case .k2, .k2Plus, .k2Pro, .hi: return nil
        }
    }

    /// The model `identity` names; nil when it names none Layerwatch knows.
    public init?(_ identity: CrealityIdentity) {
        let codes: [String: CrealityModel] = ["F021": .k2, "F008": .k2Plus, "F012": .k2Pro, "F018": .hi,
                                              "F001": .ender3V3, "F002": .ender3V3Plus, "F005": .ender3V3KE]
        let coded = Self.words(in: [identity.model, identity.modelVersion].compactMap { $0 }.joined(separator: " ").uppercased())
        if let code = coded.first(where: { codes[$0] != nil }), let model = codes[code] {
            self = model
            return
        }
        let words = Set(Self.words(in: (identity.model ?? "").lowercased()))
        if words.contains("k1c") {
            self = .k1C
        } else if words.contains("k1") {
            self = words.contains("max") ? .k1Max : words.contains("se") ? .k1SE : words.contains("c") ? .k1C : .k1
        } else if words.contains("k2") {
            self = words.contains("plus") ? .k2Plus : words.contains("pro") ? .k2Pro : .k2
        } else if words.contains("ender") && words.contains("v3") {
            self = words.contains("ke") ? .ender3V3KE : words.contains("plus") ? .ender3V3Plus : .ender3V3
        } else if words.contains("hi") {
            self = .hi
        } else {
            return nil
        }
    }

    /// The letters-and-digits runs of `text` ("CR-K1 Max" → cr, k1, max).
    private static func words(in text: String) -> [String] {
        text.split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }
}
