import CGtk
import Foundation
import GtkKit
import StatusKit
import StreamKit

/// The confirmation of Print File (a file dropped on a printer, or chosen): modal to the window it
/// was asked in, it shows each printer's live picture ("Is the build plate clear?"), its state and
/// whether it can take the file, and the file; Print sends it to every printer that can, each on
/// its own thread, showing each one's progress and then what it reports. Cancel stops the
/// sendings (no print starts), as Escape does. A printer that took the file and was asked to print
/// it is "Starting…" until it reports the print, for at most `reportTimeout`: then it ends saying
/// it has not (`PrintFileSending.unreported`), and a later report still shows it printing. Once
/// every printer has reported or ended, one toast in the parent window names those that print
/// (and a later one, those that print after all); it closes when all of them do, else stays open
/// saying why each other one did not, the others having gone on.
@MainActor
final class PrintFileDialog {
    let window: UnsafeMutablePointer<GtkWidget>
    let file: PrintFile
    private(set) var rows: [PrintTargetRow] = []
    /// The file: its name, size, what its header says, the plate.
    let summary: PrintFileSummary
    let printButton = gtk_button_new_with_mnemonic(tr("_Print"))!
    let cancelButton = gtk_button_new_with_mnemonic(tr("_Cancel"))!
    private let hub: PrinterStatusHub
    private let toast: @MainActor (String) -> Void
    /// Told of each printer that took the file and was asked to print it.
    private let started: @MainActor (UUID, String) -> Void
    private var uploads: [UUID: FileUpload] = [:]
    private var watches: [PrinterStatusHub.Observation] = []
    /// How long a started printer has to report the print.
    private let reportTimeout: TimeInterval
    /// The end of each started printer's wait for its report.
    private var reportWaits: [UUID: RepeatingTimer] = [:]
    /// The printers a toast already said print.
    private var toldPrinting: Set<UUID> = []
    private var sent = false
    /// The window is gone: its rows and buttons with it.
    private var closed = false

    /// Opens over `parent` for sending `file` to `targets`; `toast` tells in the parent window
    /// each printer that prints it; `started` is told of each printer that took it and was asked
    /// to print it, who then has `reportTimeout` to report the print.
    init(file: PrintFile, targets: [PrintTarget], over parent: UnsafeMutablePointer<GtkWidget>, hub: PrinterStatusHub,
         reportTimeout: TimeInterval,
         toast: @escaping @MainActor (String) -> Void, started: @escaping @MainActor (UUID, String) -> Void) {
        self.file = file
        self.hub = hub
        self.reportTimeout = reportTimeout
        self.started = started
        summary = PrintFileSummary(file)
        self.toast = toast
        window = adw_window_new()
        gtk_window_set_title(gcast(window), tr("Print File"))
        gtk_window_set_modal(gcast(window), true.gboolean)
        gtk_window_set_transient_for(gcast(window), gcast(parent))
        gtk_window_set_destroy_with_parent(gcast(window), true.gboolean)
        gtk_window_set_default_size(gcast(window), targets.count == 1 ? 560 : 640, -1)

        let header = adw_header_bar_new()!
        adw_header_bar_set_show_start_title_buttons(gcast(header), false.gboolean)
        adw_header_bar_set_show_end_title_buttons(gcast(header), false.gboolean)
        gtk_widget_add_css_class(printButton, "suggested-action")
        adw_header_bar_pack_start(gcast(header), cancelButton)
        adw_header_bar_pack_end(gcast(header), printButton)
        gtk_window_set_default_widget(gcast(window), printButton)

        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 18)!
        gtk_widget_add_css_class(content, "print-file")
        let question = makeLabel(tr("Is the build plate clear?"), classes: ["title-3"], leading: true)
        gtk_box_append(gcast(content), question)
        let list = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        rows = targets.map { PrintTargetRow($0, pictureWidth: targets.count == 1 ? 512 : 192) }
        for row in rows { gtk_box_append(gcast(list), row.widget) }
        gtk_box_append(gcast(content), list)
        gtk_box_append(gcast(content), summary.widget)
        let body = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(gcast(body), header)
        if targets.count == 1 {
            gtk_box_append(gcast(body), content)
        } else {
            // Several printers' rows scroll once they outgrow 640 px.
            let scrolled = gtk_scrolled_window_new()!
            gtk_scrolled_window_set_policy(gcast(scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
            gtk_scrolled_window_set_min_content_height(gcast(scrolled), min(Int32(targets.count) * 120 + 160, 640))
            gtk_scrolled_window_set_child(gcast(scrolled), content)
            gtk_box_append(gcast(body), scrolled)
        }
        adw_window_set_content(gcast(window), body)

        for row in rows {
            let id = row.target.printerID
            watches.append(hub.observe(printerID: id) { [weak self, unowned row] update in
                guard let self else { return }
                row.show(update, sending: sending(to: row.target))
                if awaitsReport(row), let status = update?.status, PrintFileSending.reportsPrint(status) { printing(row) }
                refreshButtons()
            })
        }
        connectSignal(printButton, "clicked") { [weak self] in self?.print() }
        connectSignal(cancelButton, "clicked") { [weak self] in self?.cancel() }
        // Escape does what Cancel does.
        let keys = gtk_event_controller_key_new()!
        connectKeySignal(keys) { [weak self] key, _ in
            guard Int32(key) == GDK_KEY_Escape, let self else { return false }
            cancel()
            return true
        }
        gtk_widget_add_controller(window, keys)
        keepAlive(self, untilDestroyed: window)
        connectSignal(window, "destroy") { [weak self] in
            guard let self else { return }
            // Closing the window (the window manager's close) cancels what is still being sent.
            closed = true
            watches.removeAll()
            reportWaits.removeAll()
            uploads.values.forEach { $0.cancel() }
            rows.forEach { $0.dismantle() }
        }
        refreshButtons()
        gtk_window_present(gcast(window))
    }

    /// Sends the file to every printer that can take it now; the others are told why.
    func print() {
        guard !sent else { return }
        sent = true
        for row in rows {
            let id = row.target.printerID
            guard row.refusal == nil, let sending = sending(to: row.target), let monitor = hub.monitor(of: id) else {
                row.enter(.ended(row.refusal ?? tr("Layerwatch has no connection to this printer’s status.")))
                continue
            }
            row.enter(.sending)
            uploads[id] = FileUpload(sending, given: hub.latest(id), monitor: monitor,
                                     onProgress: { [weak self, unowned row] in
                                         guard let self, !closed, let progress = uploads[id]?.progress else { return }
                                         row.showProgress(progress)
                                     },
                                     onEnd: { [weak self, unowned row] result in self?.ended(row, result) })
        }
        refreshButtons()
    }

    /// Whether a file is being sent or started from it now.
    var isSending: Bool { rows.contains { $0.stage == .sending || $0.stage == .starting } }

    /// Stops every sending under way (none starts a print), or closes once nothing is under way.
    func cancel() {
        let running = rows.filter { $0.stage == .sending }
        guard !running.isEmpty else { return gtk_window_destroy(gcast(window)) }
        for row in running { uploads[row.target.printerID]?.cancel() }
    }

    /// The file's sending to `target`; nil while it has no status connection.
    private func sending(to target: PrintTarget) -> PrintFileSending? {
        hub.endpoint(of: target.printerID).map { PrintFileSending(file: file, printer: target.name, endpoint: $0, plate: summary.plate) }
    }

    private func ended(_ row: PrintTargetRow, _ result: PrintFileSending.Result) {
        let id = row.target.printerID
        uploads[id] = nil
        guard !closed else { return }
        if result.kind == .started {
            started(id, file.name)
            row.enter(.starting)
            if let status = hub.latest(id)?.status, PrintFileSending.reportsPrint(status) {
                printing(row)
            } else {
                reportWaits[id] = RepeatingTimer(seconds: UInt32(max(1, reportTimeout.rounded(.up)))) { [weak self, unowned row] in
                    self?.unreported(row)
                }
            }
        } else {
            row.enter(.ended(result.message))
            tellOnceAllReported()
        }
        refreshButtons()
    }

    /// Whether `row`'s printer took the file and was asked to print it, and has not reported the print.
    private func awaitsReport(_ row: PrintTargetRow) -> Bool {
        if case .unreported = row.stage { return true }
        return row.stage == .starting
    }

    /// `row`'s printer has not reported the print in time: it ends saying so.
    private func unreported(_ row: PrintTargetRow) {
        reportWaits[row.target.printerID] = nil
        guard row.stage == .starting else { return }
        row.enter(.unreported(PrintFileSending.unreported.message))
        refreshButtons()
        tellOnceAllReported()
    }

    private func printing(_ row: PrintTargetRow) {
        reportWaits[row.target.printerID] = nil
        row.enter(.printing)
        refreshButtons()
        tellOnceAllReported()
    }

    /// Once no printer is being sent to or starting: one toast naming those that print and no toast
    /// named yet (a window shows one toast at a time), and the dialog closes if all of them print.
    private func tellOnceAllReported() {
        guard !isSending else { return }
        let printing = rows.filter { $0.stage == .printing }
        let untold = printing.map(\.target).filter { !toldPrinting.contains($0.printerID) }
        toldPrinting.formUnion(untold.map(\.printerID))
        // TRANSLATORS: a toast; the file's name, then the printers' ("Voron", "Voron and Prusa").
        if !untold.isEmpty { toast(String(format: tr("Printing “%@” on %@"), file.name, SpokenList.all(untold.map(\.name)))) }
        if printing.count == rows.count { gtk_window_destroy(gcast(window)) }
    }

    /// Print while it has not been pressed and some printer can take the file; Cancel while
    /// something is being sent, Close once all is told.
    private func refreshButtons() {
        guard !closed else { return }
        gtk_widget_set_sensitive(printButton, (!sent && rows.contains { $0.refusal == nil }).gboolean)
        gtk_widget_set_visible(printButton, (!sent).gboolean)
        let over = sent && !isSending
        gtk_button_set_use_underline(gcast(cancelButton), true.gboolean)
        gtk_button_set_label(gcast(cancelButton), over ? tr("_Close") : tr("_Cancel"))
    }
}
