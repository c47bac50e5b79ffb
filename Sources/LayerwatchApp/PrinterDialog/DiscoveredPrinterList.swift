import CGtk
import Foundation
import GtkKit
import PrinterKit
import StreamKit

/// The Add Printer dialog's "On your network" list (and the welcome page's): the printers of the
/// registered families found announcing themselves or answering an ask; a find of a family that
/// cannot be added is not offered. Discovery hands it the whole list several times
/// a second while printers (or a flood of fakes) announce themselves, so an update only touches the
/// rows whose printer appeared, changed, moved or left. What a printer announces is shown as plain
/// text on one line each (title and details), never as markup, however long or odd it is. While no
/// printer is listed it keeps looking, spinner turning, for as long as it shows: a printer may
/// announce itself only now and then, so after a quiet while it says none has yet, never that
/// there is none. When no port could be listened on, it says that instead of looking.
@MainActor
final class DiscoveredPrinterList {
    /// The list box (owned here too: an Edit Printer dialog never shows it).
    var widget: UnsafeMutablePointer<GtkWidget> { listBox.pointer }
    /// The user picked a printer from the list.
    var onPick: @MainActor (DiscoveredPrinter) -> Void = { _ in }
    /// The printers shown, in their order.
    private(set) var printers: [DiscoveredPrinter] = []
    /// Each shown printer's row by its key (`DiscoveredPrinter.key`); the reference keeps a row alive while it is moved.
    private var rows: [String: GObjectRef<UnsafeMutablePointer<GtkWidget>>] = [:]
    /// "Looking for printers…" with a spinner, in the list while it has no printer.
    private let searching: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    /// The searching row's spinner, turning as long as the list shows.
    private let spinner = gtk_spinner_new()!
    private let listBox = GObjectRef(adopting: gtk_list_box_new()!)
    /// Whether any printer was listed since the list was made.
    private var heardAny = false
    /// Whether the list was told no port could be listened on (`showCannotListen`).
    private var deaf = false
    private let quietSeconds: UInt32
    /// While the searching row shows, until it fires, the row says printers announce themselves;
    /// then, if none has, that none has yet.
    private var patience: RepeatingTimer?

    /// A list that says no printer has announced itself yet after `quietSeconds` without one.
    init(quietSeconds: UInt32 = 60) {
        self.quietSeconds = quietSeconds
        searching = GObjectRef(adopting: Self.makeRow())
        // Its own sentence, not a printer's text: it wraps (at 360 px wide it takes two lines).
        adw_action_row_set_subtitle_lines(gcast(searching.pointer), 0)
        gtk_spinner_start(gcast(spinner))
        gtk_widget_set_valign(spinner, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(gcast(searching.pointer), spinner)
        gtk_widget_add_css_class(widget, "boxed-list")
        gtk_list_box_set_selection_mode(gcast(widget), GTK_SELECTION_NONE)
        Self.describe(searching.pointer, title: Self.lookingTitle, subtitle: Self.lookingText)
        gtk_list_box_append(gcast(widget), searching.pointer)
        // The quiet while counts from when the row comes on screen (a welcome page is made long
        // before it shows, and its listener starts when it does).
        connectSignal(searching.pointer, "map") { [weak self] in self?.startLooking() }
        connectSignal(searching.pointer, "unmap") { [weak self] in self?.patience = nil }
    }

    /// Says it is looking, the quiet while counted from now.
    private func startLooking() {
        guard !deaf else { return }
        if !heardAny { adw_action_row_set_subtitle(gcast(searching.pointer), Self.lookingText) }
        patience = RepeatingTimer(seconds: quietSeconds) { [weak self] in self?.quietWhileEnded() }
    }

    /// The searching row's subtitle, for tests.
    var searchingText: String {
        adw_action_row_get_subtitle(gcast(searching.pointer)).map { String(cString: $0) } ?? ""
    }

    private static var lookingTitle: String { tr("Looking for printers…") }

    /// How each registered family's printers are found (heard or asked), and that one can be added by address.
    private static var lookingText: String {
        let heard = PrinterDiscovery.Endpoint.everyFamilyTitles, asked = DiscoveryAsk.everyFamilyTitles
        return [heard.isEmpty ? nil : String(format: tr("%@ printers on this network announce themselves every few seconds."),
                                             SpokenList.all(heard)),
                asked.isEmpty ? nil : String(format: tr("%@ printers on this network are asked every few seconds."),
                                             SpokenList.all(asked)),
                tr("You can also add one by its address.")].compactMap { $0 }.joined(separator: " ")
    }

    /// Says, if no printer has announced itself so far, that none has yet; the list keeps looking.
    private func quietWhileEnded() {
        patience?.cancel()
        patience = nil
        guard !heardAny else { return }
        adw_action_row_set_subtitle(gcast(searching.pointer),
                                    tr("No printer has announced itself yet. Check that it is on and on the same network as this computer, or add it by its address."))
    }

    /// Says, in place of looking, that no printer can be heard: no port they announce themselves
    /// on could be listened on (`failures`, each port's reason). The spinner stops.
    func showCannotListen(_ failures: [PrinterDiscovery.BindFailure]) {
        deaf = true
        patience = nil
        gtk_spinner_stop(gcast(spinner))
        gtk_widget_set_visible(spinner, false.gboolean)
        let holder = failures.first { $0.code == EADDRINUSE }
        Self.describe(searching.pointer, title: tr("Cannot look for printers"),
                      subtitle: holder.map {
                          String(format: tr("Another program on this computer holds the port %@ printers announce themselves on. Add the printer by its address."),
                                 SpokenList.all($0.familyTitles))
                      } ?? tr("This computer does not let Layerwatch listen for printers on the network. Add the printer by its address."))
    }

    /// Looks again after `showCannotListen`: the listener now listens.
    func showListening() {
        guard deaf else { return }
        deaf = false
        gtk_widget_set_visible(spinner, true.gboolean)
        gtk_spinner_start(gcast(spinner))
        adw_preferences_row_set_title(gcast(searching.pointer), Self.lookingTitle)
        if gtk_widget_get_mapped(searching.pointer) != 0 { startLooking() }
    }

    /// Shows `printers` in this order, reusing the row of every printer already shown.
    func show(_ printers: [DiscoveredPrinter]) {
        let shown = Dictionary(self.printers.map { ($0.key, $0) }) { first, _ in first }
        self.printers = printers
        if !printers.isEmpty && !heardAny {
            heardAny = true
            adw_action_row_set_subtitle(gcast(searching.pointer), Self.lookingText)
        }
        let wanted = Set(printers.map(\.key))
        for (key, row) in rows where !wanted.contains(key) {
            gtk_list_box_remove(gcast(widget), row.pointer)
            rows[key] = nil
        }
        let searchingShown = gtk_widget_get_parent(searching.pointer) != nil
        if printers.isEmpty != searchingShown {
            if printers.isEmpty {
                gtk_list_box_append(gcast(widget), searching.pointer)
            } else {
                gtk_list_box_remove(gcast(widget), searching.pointer)
            }
        }
        for (index, printer) in printers.enumerated() {
            place(printer, at: Int32(index), changed: shown[printer.key] != printer)
        }
    }

    /// The row showing the printer with `serial` (its identifier), if it is listed.
    func row(serial: String) -> UnsafeMutablePointer<GtkWidget>? {
        printers.first { $0.identifier == serial }.flatMap { rows[$0.key]?.pointer }
    }

    /// Makes `printer`'s row the one at `index`: a new row, or the shown one moved there and its
    /// text replaced only when the printer `changed`.
    private func place(_ printer: DiscoveredPrinter, at index: Int32, changed: Bool) {
        if let row = rows[printer.key] {
            if gtk_list_box_row_get_index(gcast(row.pointer)) != index {
                gtk_list_box_remove(gcast(widget), row.pointer)
                gtk_list_box_insert(gcast(widget), row.pointer, index)
            }
            if changed { describe(row.pointer, as: printer) }
            return
        }
        let row = GObjectRef(adopting: Self.makeRow())
        gtk_list_box_row_set_activatable(gcast(row.pointer), true.gboolean)
        adw_action_row_add_suffix(gcast(row.pointer), gtk_image_new_from_icon_name("go-next-symbolic"))
        let key = printer.key
        connectSignal(row.pointer, "activated") { [weak self] in
            guard let self, let picked = printers.first(where: { $0.key == key }) else { return }
            onPick(picked)
        }
        rows[key] = row
        describe(row.pointer, as: printer)
        gtk_list_box_insert(gcast(widget), row.pointer, index)
    }

    private func describe(_ row: UnsafeMutablePointer<GtkWidget>, as printer: DiscoveredPrinter) {
        let connection = printer.connection.map { $0 == .lan ? tr("LAN mode") : tr("cloud mode") }
        Self.describe(row, title: printer.displayName,
                      subtitle: [printer.modelName ?? printer.familyTitle, printer.address, connection].compactMap { $0 }.joined(separator: " · "))
    }

    /// An action row whose title and subtitle are plain text, the title on one line, the subtitle
    /// (model · address · mode) on at most two, so the address still shows 360 px wide; ellipsized.
    private static func makeRow() -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_action_row_new()!
        adw_preferences_row_set_use_markup(gcast(row), false.gboolean)
        adw_action_row_set_title_lines(gcast(row), 1)
        adw_action_row_set_subtitle_lines(gcast(row), 2)
        return row
    }

    private static func describe(_ row: UnsafeMutablePointer<GtkWidget>, title: String, subtitle: String) {
        adw_preferences_row_set_title(gcast(row), title)
        adw_action_row_set_subtitle(gcast(row), subtitle)
    }
}
