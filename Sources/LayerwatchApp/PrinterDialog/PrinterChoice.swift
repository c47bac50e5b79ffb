import PrinterKit

/// One entry of the printer dialog's "Type" drop-down, declared once: its title, the kind of
/// printer it makes, and the fields it shows with what each says for it (example, hint, and the
/// secret field's title: "Access code", "API key" or "API password"). `PrinterChoice.all`
/// (PrinterChoices.swift) is the drop-down in order; the dialog reads everything from it. The
/// camera mounting, the same for every choice, is not in it.
struct PrinterChoice: Equatable, Sendable {
    /// A field of the dialog a choice may show.
    enum Field: CaseIterable, Sendable {
        case name, host
        /// A Creality printer's family, which its camera follows.
        case model
        case apiPort, apiUser
        /// The secret: a Bambu access code, a Moonraker or OctoPrint API key, go2rtc's API password.
        case accessCode
        case serial, url, cameras, timelapse
    }

    /// What a shown field says for the choice: its title when the choice names it, the example in
    /// the empty entry, and the hint under it.
    struct FieldText: Equatable, Sendable {
        var title: String?
        var placeholder: String?
        var hint: String?
    }

    let title: String
    /// The kind it makes (with no Bambu model: the dialog adds a discovered or edited one's; with
    /// the first Creality family: the dialog's Model row says which).
    let kind: Printer.Kind
    /// go2rtc's streams are saved as generic cameras: the choice is no kind of its own.
    var isGo2RTC = false
    /// The fields it shows, with their texts. The URL field shows only while one of the printer's
    /// cameras with a URL is selected in the dialog's camera list.
    let fields: [Field: FieldText]

    func shows(_ field: Field) -> Bool { fields[field] != nil }

    /// The kind it makes for a printer of `model`, or of `family`: with the model when the model's
    /// camera is this choice's, with the family when the choice is Creality's.
    func kind(model: BambuModel?, family: CrealityFamily) -> Printer.Kind {
        kind.choosing(model: model, crealityFamily: family)
    }

    /// The choice that makes `kind` ("Camera by URL" for a generic camera, not go2rtc's).
    static func making(_ kind: Printer.Kind) -> PrinterChoice {
        all.first { !$0.isGo2RTC && $0.kind == kind.withoutVariant } ?? camera
    }

    /// The position of the choice in the drop-down.
    var index: Int { Self.all.firstIndex(of: self) ?? 0 }
}
