import PrinterKit

/// One entry of the printer dialog's "Type" drop-down, declared once: its title, the kind of
/// printer it makes, the fields it shows with what each says for it (example, hint, and the
/// secret field's title: "Access code", "API key" or "API password"), the variants its Model row
/// offers, and its Test Connection steps. `PrinterChoice.all` (PrinterChoices.swift) is the
/// drop-down in order; the dialog reads everything from it. The camera mounting, the same for
/// every choice, is not in it.
struct PrinterChoice: Equatable, Sendable {
    /// A field of the dialog a choice may show.
    enum Field: CaseIterable, Sendable {
        case name, host
        /// The Model row: the printer's variant (a Creality printer's family), chosen among `variants`.
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

    /// One entry of the Model row: a variant of the kind, which its own camera follows.
    struct Variant: Equatable, Sendable {
        /// The variant as `printers.json` keeps it (`Printer.Kind.variant`).
        let raw: String
        /// Its entry in the row.
        let title: String
        /// Under the row while it is chosen (its models and its camera).
        let hint: String
        /// The own camera's row in the camera list while it is chosen.
        let ownCamera: String
    }

    let title: String
    /// The kind it makes (with no variant: the dialog adds a discovered or edited printer's, or
    /// the one its Model row chose).
    let kind: Printer.Kind
    /// go2rtc's streams are saved as generic cameras: the choice is no kind of its own.
    var isGo2RTC = false
    /// The fields it shows, with their texts. The URL field shows only while one of the printer's
    /// cameras with a URL is selected in the dialog's camera list.
    let fields: [Field: FieldText]
    /// The Model row's entries, in order (the first is a new printer's); empty when it has none.
    var variants: [Variant] = []
    /// How Test Connection tries its printers.
    var connectionTest: any ConnectionTestSteps = StatusThenCameras()

    func shows(_ field: Field) -> Bool { fields[field] != nil }

    /// The kind it makes for `variant` (the Model row's, or a discovered or edited printer's): as
    /// its family fits the variant to it (a Bambu model only when its camera is this choice's).
    func kind(variant: String?) -> Printer.Kind {
        kind.choosing(variant: variant)
    }

    /// Choices are told apart by what they show; their steps follow from their kind.
    static func == (lhs: PrinterChoice, rhs: PrinterChoice) -> Bool {
        lhs.title == rhs.title && lhs.kind == rhs.kind && lhs.isGo2RTC == rhs.isGo2RTC && lhs.fields == rhs.fields
            && lhs.variants == rhs.variants
    }

    /// The choice that makes `kind` ("Camera by URL" for a generic camera, not go2rtc's).
    static func making(_ kind: Printer.Kind) -> PrinterChoice {
        all.first { !$0.isGo2RTC && $0.kind == kind.withoutVariant } ?? camera
    }

    /// The position of the choice in the drop-down.
    var index: Int { Self.all.firstIndex(of: self) ?? 0 }
}
