import CGtk
import GtkKit
import PrinterKit

/// The printer dialog's Model row: the variant of the kind (a Creality printer's family), whose
/// entries, hint and own camera's words the choice declares (`PrinterChoice.variants`).
extension PrinterDialog {
    /// The variant the Model row shows; nil for a choice without variants.
    var chosenVariant: PrinterChoice.Variant? {
        let variants = choice.variants
        return variants.isEmpty ? nil : variants[min(variantRow.selected, variants.count - 1)]
    }

    /// Shows the variant `raw` in the Model row, when the choice has it.
    func chooseVariant(_ raw: String) {
        if let index = choice.variants.firstIndex(where: { $0.raw == raw }) { variantRow.selected = index }
    }

    /// The choice's variants in the Model row; a choice without any (which hides the row) leaves
    /// it as it was, so the variant chosen comes back with its choice.
    func showVariants() {
        let variants = choice.variants
        if !variants.isEmpty { variantRow.showChoices(variants.map(\.title)) }
    }

    /// The Model row's hint: the chosen variant's, then the choice's own hint.
    func showVariantHint() {
        variantRow.setHint([chosenVariant?.hint, choice.fields[.model]?.hint].compactMap { $0 }.joined(separator: " "))
    }

    /// Another variant chosen: the hint and the own camera's row follow it.
    func variantChanged() {
        showVariantHint()
        showCamera(at: selectedCamera)
    }
}
