import CGtk
import Foundation
import GtkKit
import StatusKit
import StreamKit

/// The file in the Print File confirmation: its name and size at once, then what its header says
/// (`PrintFileHeader`, read off the main loop) — the slicer's thumbnail, the estimated time, the
/// filament, the slicer — and for a 3MF project with several sliced plates, a chooser of the plate.
@MainActor
final class PrintFileSummary {
    let widget: UnsafeMutablePointer<GtkWidget>
    /// The plate chosen (1 unless a project has several).
    private(set) var plate = 1
    /// What the header said, once read (tests read it).
    private(set) var header: PrintFileHeader?
    private let picture = gtk_picture_new()!
    private let details = makeLabel(classes: ["dim-label"], wraps: true, leading: true)
    private let text = gtk_box_new(GTK_ORIENTATION_VERTICAL, 4)!
    private var plates: [Int] = []
    private var texture: GObjectRef<OpaquePointer>?
    private var size: Int64 = 0

    init(_ file: PrintFile) {
        widget = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)
        gtk_widget_add_css_class(widget, "print-file-summary")
        gtk_picture_set_can_shrink(gcast(picture), true.gboolean)
        gtk_widget_set_size_request(picture, 96, 96)
        gtk_widget_set_visible(picture, false.gboolean)
        gtk_widget_set_valign(picture, GTK_ALIGN_START)
        let name = makeLabel(file.name, classes: ["heading"], leading: true)
        gtk_label_set_ellipsize(gcast(name), PANGO_ELLIPSIZE_MIDDLE)
        gtk_widget_set_hexpand(text, true.gboolean)
        gtk_box_append(gcast(text), name)
        gtk_box_append(gcast(text), details)
        gtk_box_append(gcast(widget), picture)
        gtk_box_append(gcast(widget), text)
        gtk_label_set_text(gcast(details), PrintTargetRow.size(file.size))
        DispatchQueue.global(qos: .userInitiated).async {
            let header = PrintFileHeader.read(file)
            MainLoopExecutor.main.runOnMainActor { [weak self] in self?.show(header, of: file) }
        }
    }

    /// The details line: "12.3 MB · 2 h 05 min to print · 36 g of filament · PrusaSlicer 2.7.1".
    var detailsText: String { String(cString: gtk_label_get_text(gcast(details))) }
    var showsThumbnail: Bool { Bool(gboolean: gtk_widget_get_visible(picture)) }

    private func show(_ header: PrintFileHeader, of file: PrintFile) {
        self.header = header
        size = file.size
        plates = header.plates.filter(\.isSliced).map(\.number)
        if let first = plates.first { plate = first }
        describe(seconds: header.printSeconds, grams: header.filamentGrams, millimetres: header.filamentMillimetres,
                 thumbnail: header.thumbnail)
        if plates.count > 1 { addPlateChooser() }
    }

    /// Shows the chosen plate's time, filament and picture (a project's header gives its first's).
    private func showPlate() {
        guard let header, let chosen = header.plates.first(where: { $0.number == plate }) else { return }
        describe(seconds: chosen.printSeconds, grams: chosen.filamentGrams, millimetres: chosen.filamentMillimetres,
                 thumbnail: chosen.thumbnail ?? header.thumbnail)
    }

    private func describe(seconds: Int?, grams: Double?, millimetres: Double?, thumbnail: PrintFileThumbnail?) {
        var parts = [PrintTargetRow.size(size)]
        if let seconds {
            // TRANSLATORS: the slicer's estimate of a print's time ("2 h 05 min to print").
            parts.append(String(format: tr("%@ to print"), StatusText.duration(TimeInterval(seconds))))
        }
        if let grams {
            // TRANSLATORS: the filament a print uses, by weight.
            parts.append(String(format: tr("%d g of filament"), PrinterNumber.rounded(grams)))
        } else if let millimetres {
            // TRANSLATORS: the filament a print uses, by length in metres.
            parts.append(String(format: tr("%.1f m of filament"), millimetres / 1000))
        }
        if let slicer = header?.slicer { parts.append([slicer.name, slicer.version].compactMap { $0 }.joined(separator: " ")) }
        gtk_label_set_text(gcast(details), parts.joined(separator: " · "))
        texture = thumbnail.flatMap { decodedTexture($0.image) }
        gtk_picture_set_paintable(gcast(picture), texture.map { gcast($0.pointer) })
        gtk_widget_set_visible(picture, (texture != nil).gboolean)
    }

    /// A drop-down of the project's sliced plates ("Plate 2").
    private func addPlateChooser() {
        // TRANSLATORS: a 3MF project's plate in the Print File confirmation; %ld is its number.
        let titles = plates.map { String(format: tr("Plate %ld"), $0) }
        let chooser = withCStringArray(titles) { gtk_drop_down_new_from_strings($0) }!
        gtk_widget_set_halign(chooser, GTK_ALIGN_START)
        setAccessibleLabel(chooser, tr("Plate"))
        connectNotify(chooser, "selected") { [weak self] in
            guard let self else { return }
            let index = Int(gtk_drop_down_get_selected(gcast(chooser)))
            if plates.indices.contains(index) { plate = plates[index] }
            showPlate()
        }
        gtk_box_append(gcast(text), chooser)
    }
}
