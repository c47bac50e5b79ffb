import CGtk
import Foundation
import GtkKit
import JournalKit
import StreamKit

/// The History page (Ctrl+H): the journal's prints, newest first, grouped by day, narrowed by
/// printer, result and words of the job's name, or to those ended since a time (the banner of what
/// happened while the user was away, which shows that as a chip to remove); a print's row opens its
/// page, with a back button (Escape, Alt+Left) in the page's own bar. It follows the journal while
/// it exists: a print recorded or ended shows at once.
@MainActor
final class HistoryPage {
    /// The list, or a print's page.
    let widget: UnsafeMutablePointer<GtkWidget>
    let list: HistoryList
    let search: UnsafeMutablePointer<GtkWidget>
    let printerChoice: UnsafeMutablePointer<GtkWidget>
    let resultChoice: UnsafeMutablePointer<GtkWidget>
    /// The chip saying the list shows the prints ended since a time, and its label.
    let sinceChip: UnsafeMutablePointer<GtkWidget>
    let sinceLabel: UnsafeMutablePointer<GtkWidget>
    /// The rows, or the empty page.
    private let content: UnsafeMutablePointer<GtkWidget>
    let empty: UnsafeMutablePointer<GtkWidget>
    /// A print's page and its bar.
    private let printArea: UnsafeMutablePointer<GtkWidget>
    let printTitle: UnsafeMutablePointer<GtkWidget>
    let backButton: UnsafeMutablePointer<GtkWidget>
    /// The print's page shown last.
    private(set) var printPage: HistoryPrintPage?
    private let store: JournalStore
    /// The printers of the printer choice after "All Printers".
    private(set) var printers: [JournalPrinter] = []
    /// The results of the result choice, nil for all.
    private static let results: [PrintResult?] = [nil, .finished, .failed, .cancelled]
    private var filter = HistoryFilter()
    /// When the page was asked to show (monotonic µs), until its rows are first painted: the
    /// debug log says how long that took (`layerwatch-bench history-page` reads it).
    private var askedAt: gint64?
    /// Set while the choices are set from here, not by the user.
    private var settingChoices = false

    init(store: JournalStore) {
        self.store = store
        list = HistoryList(store: store)
        search = gtk_search_entry_new()
        gtk_widget_set_hexpand(search, true.gboolean)
        Self.setPlaceholder(of: search, tr("Search job names"))
        printerChoice = makeDropDown([tr("All Printers")])
        gtk_widget_set_tooltip_text(printerChoice, tr("Printer"))
        resultChoice = makeDropDown([tr("All Results"), tr("Finished"), tr("Failed"), tr("Cancelled")])
        gtk_widget_set_tooltip_text(resultChoice, tr("Result"))
        sinceLabel = gtk_label_new(nil)
        let removeSince = gtk_button_new_from_icon_name("window-close-symbolic")!
        gtk_widget_add_css_class(removeSince, "flat")
        gtk_widget_add_css_class(removeSince, "circular")
        gtk_widget_set_tooltip_text(removeSince, tr("Show all prints"))
        setAccessibleLabel(removeSince, tr("Show all prints"))
        sinceChip = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 3)
        gtk_widget_add_css_class(sinceChip, "card")
        gtk_widget_set_margin_start(sinceLabel, 9)
        gtk_box_append(gcast(sinceChip), sinceLabel)
        gtk_box_append(gcast(sinceChip), removeSince)
        gtk_widget_set_visible(sinceChip, false.gboolean)
        let filters = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        for child in [search, sinceChip, printerChoice, resultChoice] { gtk_box_append(gcast(filters), child) }
        for side in [gtk_widget_set_margin_top, gtk_widget_set_margin_bottom, gtk_widget_set_margin_start, gtk_widget_set_margin_end] {
            side(filters, 12)
        }
        let filterClamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(gcast(filterClamp), 900)
        adw_clamp_set_child(gcast(filterClamp), filters)
        empty = adw_status_page_new()
        content = gtk_stack_new()
        gtk_stack_add_named(gcast(content), list.widget, "rows")
        gtk_stack_add_named(gcast(content), empty, "empty")
        gtk_widget_set_vexpand(content, true.gboolean)
        let listArea = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(gcast(listArea), filterClamp)
        gtk_box_append(gcast(listArea), content)
        gtk_search_entry_set_key_capture_widget(gcast(search), listArea)
        // A print's page under its bar: back, and the job's name.
        let back = gtk_button_new_from_icon_name("go-previous-symbolic")!
        backButton = back
        gtk_widget_set_tooltip_text(back, tr("Back"))
        setAccessibleLabel(back, tr("Back"))
        gtk_actionable_set_action_name(gcast(back), "history.back")
        printTitle = makeLabel(classes: ["heading"])
        gtk_label_set_ellipsize(gcast(printTitle), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(printTitle, true.gboolean)
        let bar = gtk_center_box_new()!
        gtk_widget_add_css_class(bar, "toolbar")
        gtk_center_box_set_start_widget(gcast(bar), back)
        gtk_center_box_set_center_widget(gcast(bar), printTitle)
        printArea = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_box_append(gcast(printArea), bar)
        widget = gtk_stack_new()
        gtk_stack_set_transition_type(gcast(widget), GTK_STACK_TRANSITION_TYPE_SLIDE_LEFT_RIGHT)
        gtk_stack_add_named(gcast(widget), listArea, "list")
        gtk_stack_add_named(gcast(widget), printArea, "print")
        let actions = GObjectRef(adopting: g_simple_action_group_new()!)
        addAction(actions.pointer, "back") { [weak self] in self?.back() }
        gtk_widget_insert_action_group(widget, "history", gcast(actions.pointer))
        let keys = gtk_shortcut_controller_new()!
        gtk_shortcut_controller_add_shortcut(gcast(keys), gtk_shortcut_new(gtk_shortcut_trigger_parse_string("Escape|<Alt>Left"),
                                                                            gtk_named_action_new("history.back")))
        gtk_widget_add_controller(widget, keys)
        list.onActivate = { [weak self] print in self?.open(print) }
        list.onRead = { [weak self] empty in
            guard let self else { return }
            showEmpty(empty)
            if let askedAt {
                self.askedAt = nil
                if !empty { firstRowsRead(askedAt: askedAt) }
            }
        }
        connectSignal(search, "search-changed") { [weak self] in self?.filterChanged() }
        connectNotify(printerChoice, "selected") { [weak self] in self?.filterChanged() }
        connectNotify(resultChoice, "selected") { [weak self] in self?.filterChanged() }
        connectSignal(removeSince, "clicked") { [weak self] in self?.show(endedSince: nil) }
        keepAlive(self, untilDestroyed: widget)
    }

    /// The page came into view: the journal read again (it may have changed while it was not shown).
    func shown() {
        askedAt = g_get_monotonic_time()
        readPrinters()
        list.show(filter)
    }

    /// Lists only the prints ended at or after `since` (all when nil), saying so in the chip.
    func show(endedSince since: Date?) {
        back()
        gtk_widget_set_visible(sinceChip, (since != nil).gboolean)
        if let since { gtk_label_set_text(gcast(sinceLabel), HistoryText.since(since)) }
        filter.endedSince = since
        list.show(filter)
    }

    /// A print was recorded, ended or given its picture.
    func journalChanged() {
        guard gtk_widget_get_mapped(widget) != 0 else { return }
        readPrinters()
        list.refresh()
    }

    /// Puts the keyboard in the search (the list shown first).
    func focusSearch() {
        back()
        gtk_widget_grab_focus(search)
    }

    /// Whether a print's page shows.
    var isPrintShown: Bool {
        gtk_stack_get_visible_child_name(gcast(widget)).map { String(cString: $0) } == "print"
    }

    /// Shows `print`'s page (in place of the one shown before, which stayed to slide out whole).
    func open(_ print: JournalPrint) {
        if let old = printPage?.widget { gtk_box_remove(gcast(printArea), old) }
        let page = HistoryPrintPage(print: print, store: store)
        printPage = page
        gtk_widget_set_vexpand(page.widget, true.gboolean)
        gtk_box_append(gcast(printArea), page.widget)
        gtk_label_set_text(gcast(printTitle), print.job ?? tr("Unnamed print"))
        gtk_stack_set_visible_child_name(gcast(widget), "print")
        gtk_widget_grab_focus(backButton)
    }

    /// Back from a print's page to the list, where it was.
    func back() {
        guard isPrintShown else { return }
        gtk_stack_set_visible_child_name(gcast(widget), "list")
        gtk_widget_grab_focus(list.view)
    }

    private func filterChanged() {
        guard !settingChoices else { return }
        let printer = Int(gtk_drop_down_get_selected(gcast(printerChoice)))
        let result = Int(gtk_drop_down_get_selected(gcast(resultChoice)))
        filter.printerID = printers.indices.contains(printer - 1) ? printers[printer - 1].id : nil
        filter.result = Self.results.indices.contains(result) ? Self.results[result] : nil
        filter.search = String(cString: gtk_editable_get_text(gcast(search)))
        list.show(filter)
    }

    /// Reads the printers of the journal off the main loop and offers them, the choice kept.
    private func readPrinters() {
        let store = store
        DispatchQueue.global(qos: .userInitiated).async {
            let printers = store.printers()
            MainLoopExecutor.main.runOnMainActor { [weak self] in self?.offer(printers) }
        }
    }

    private func offer(_ printers: [JournalPrinter]) {
        guard printers != self.printers else { return }
        let chosen = filter.printerID
        self.printers = printers
        settingChoices = true
        setChoices(ofDropDown: printerChoice, [tr("All Printers")] + printers.map(\.name))
        let index = chosen.flatMap { id in printers.firstIndex { $0.id == id } }.map { $0 + 1 } ?? 0
        gtk_drop_down_set_selected(gcast(printerChoice), guint(index))
        settingChoices = false
        if index == 0, chosen != nil { filterChanged() }  // its printer is no longer in the journal
    }

    /// The rows read first since the page was asked for: the keyboard goes to the list unless it is
    /// in the page already (the search), and the debug log says, once the rows are painted, how long
    /// after it was asked for.
    private func firstRowsRead(askedAt: gint64) {
        let focus = gtk_widget_get_root(widget).flatMap { gtk_root_get_focus($0) }
        if focus.map({ gtk_widget_is_ancestor($0, widget) == 0 }) ?? true { gtk_widget_grab_focus(list.view) }
        afterNextPaint(of: list.view) { [list] in
            GLibLog.debug("history: \(list.prints.count) rows painted \((g_get_monotonic_time() - askedAt) / 1000) ms after the page was asked for")
        }
    }

    /// Sets the search entry's placeholder, on its text (GTK 4.8's search entry has no setter).
    private static func setPlaceholder(of entry: UnsafeMutablePointer<GtkWidget>, _ text: String) {
        var child = gtk_widget_get_first_child(entry)
        while let widget = child {
            if String(cString: gtk_widget_get_css_name(widget)) == "text" { gtk_text_set_placeholder_text(gcast(widget), text) }
            child = gtk_widget_get_next_sibling(widget)
        }
    }

    /// The empty page when nothing is listed: no print at all, or none the filters let through.
    private func showEmpty(_ isEmpty: Bool) {
        if isEmpty {
            let filtered = !filter.isEmpty
            adw_status_page_set_icon_name(gcast(empty), filtered ? "edit-find-symbolic" : "document-open-recent-symbolic")
            adw_status_page_set_title(gcast(empty), filtered ? tr("No Matching Prints") : tr("No Prints Yet"))
            adw_status_page_set_description(gcast(empty), filtered ? tr("Try another printer, result or search.")
                                                : tr("Prints appear here as your printers start them."))
        }
        gtk_stack_set_visible_child_name(gcast(content), isEmpty ? "empty" : "rows")
    }
}
