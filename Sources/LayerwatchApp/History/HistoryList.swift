import CGtk
import Foundation
import GtkKit
import JournalKit

/// The History page's list: a `GtkListView` over a string list standing for `prints` (item n is
/// print n), filled a page at a time from the journal — read off the main loop, the next page
/// asked for as the rows near the end are bound, so ten thousand prints cost what the rows shown
/// cost. A new filter reads the first page again (a newer query supersedes an older one still
/// reading); a change in the journal reads again as many as are listed and changes only the rows
/// that differ, so the list stays where the user scrolled.
@MainActor
final class HistoryList {
    /// How many prints a read brings.
    static let pageSize = 100

    /// The scrolled list.
    let widget: UnsafeMutablePointer<GtkWidget>
    let view: UnsafeMutablePointer<GtkWidget>
    private let store: JournalStore
    private let model: GObjectRef<OpaquePointer>
    /// The prints listed, newest first, one per item of `model`.
    private(set) var prints: [JournalPrint] = []
    private(set) var filter = HistoryFilter()
    /// The rows made, by list item.
    private var rows: [UnsafeMutableRawPointer: HistoryRow] = [:]
    let thumbnails = HistoryThumbnails()
    /// Counts the reads asked for: a read's answer is taken only while it is the newest.
    private var generation = 0
    private var reading = false
    /// Whether the journal has no more prints after `prints` for this filter.
    private var complete = false
    /// A print's row was activated.
    var onActivate: @MainActor (JournalPrint) -> Void = { _ in }
    /// A read of the first page came back: whether the list is empty now.
    var onRead: @MainActor (_ empty: Bool) -> Void = { _ in }

    init(store: JournalStore) {
        self.store = store
        model = GObjectRef(adopting: gtk_string_list_new(nil)!)
        let factory = GObjectRef(adopting: gtk_signal_list_item_factory_new()!)
        let selection = gtk_no_selection_new(gcast(g_object_ref(model.pointer.rawGObject)))!  // takes the model
        view = gtk_list_view_new(gcast(selection), gcast(g_object_ref(factory.pointer.rawGObject)))  // takes both
        gtk_list_view_set_single_click_activate(gcast(view), true.gboolean)
        gtk_widget_add_css_class(view, "navigation-sidebar")
        let clamp = adw_clamp_scrollable_new()!
        adw_clamp_scrollable_set_maximum_size(gcast(clamp), 900)
        adw_clamp_scrollable_set_child(gcast(clamp), view)
        widget = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(gcast(widget), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(gcast(widget), clamp)
        gtk_widget_set_vexpand(widget, true.gboolean)
        connectSignal(factory.pointer, "setup") { [weak self] (item: UnsafeMutableRawPointer?) in
            guard let self, let item else { return }
            let row = HistoryRow()
            rows[item] = row
            gtk_list_item_set_child(gcast(item), row.widget)
        }
        connectSignal(factory.pointer, "bind") { [weak self] (item: UnsafeMutableRawPointer?) in if let item { self?.bind(item) } }
        connectSignal(factory.pointer, "unbind") { [weak self] (item: UnsafeMutableRawPointer?) in
            guard let self, let item else { return }
            rows[item]?.forget(thumbnails)
        }
        connectSignal(factory.pointer, "teardown") { [weak self] (item: UnsafeMutableRawPointer?) in
            guard let self, let item else { return }
            rows[item]?.forget(thumbnails)
            rows[item] = nil
        }
        connectInt32Signal(view, "activate") { [weak self] position in
            guard let self, prints.indices.contains(Int(position)) else { return }
            onActivate(prints[Int(position)])
        }
        keepAlive(self, untilDestroyed: widget)
    }

    /// The rows bound now (those shown, and a few around them), in list order.
    var boundRows: [HistoryRow] {
        rows.values.filter { $0.print != nil && gtk_widget_get_mapped($0.widget) != 0 }
            .sorted { $0.position < $1.position }
    }

    /// Lists the prints `filter` lets through, from the newest, at the top.
    func show(_ filter: HistoryFilter) {
        self.filter = filter
        read(limit: Self.pageSize, replacing: true)
    }

    /// Reads again as many prints as are listed (the journal changed), and changes the rows that differ.
    func refresh() {
        read(limit: max(Self.pageSize, prints.count), replacing: false)
    }

    /// Reads the first `limit` prints of the filter off the main loop, then lists them: all rows
    /// anew (`replacing`: a new filter, from the top), or only those that differ.
    private func read(limit: Int, replacing: Bool) {
        generation += 1
        let generation = generation, query = filter.query(limit: limit), store = store
        reading = true
        DispatchQueue.global(qos: .userInitiated).async {
            let read = store.prints(query)
            MainLoopExecutor.main.runOnMainActor { [weak self] in
                guard let self, self.generation == generation else { return }
                reading = false
                complete = read.count < limit
                if replacing {
                    replace(0..<prints.count, with: read)
                    if let adjustment = gtk_scrolled_window_get_vadjustment(gcast(widget)) { gtk_adjustment_set_value(adjustment, 0) }
                } else {
                    update(to: read)
                }
                onRead(prints.isEmpty)
            }
        }
    }

    /// Reads the page after the last print listed, off the main loop, and appends it.
    private func readMore() {
        guard !reading, !complete, let last = prints.last else { return }
        let generation = generation, query = filter.query(after: last, limit: Self.pageSize), store = store
        reading = true
        DispatchQueue.global(qos: .userInitiated).async {
            let page = store.prints(query)
            MainLoopExecutor.main.runOnMainActor { [weak self] in
                guard let self, self.generation == generation else { return }
                reading = false
                complete = page.count < query.limit
                replace(prints.count..<prints.count, with: page)
                if complete { GLibLog.debug("history: all \(prints.count) prints listed") }
            }
        }
    }

    /// Lists `read` in place of `prints`, changing only the items from the first that differs to
    /// the last that does (and the one after, whose day heading may depend on them).
    private func update(to read: [JournalPrint]) {
        let same = zip(prints, read).prefix { $0 == $1 }.count
        var sameAtEnd = zip(prints.reversed(), read.reversed()).prefix { $0 == $1 }.count
        sameAtEnd = max(0, min(sameAtEnd - 1, prints.count - same, read.count - same))
        guard same != prints.count || same != read.count else { return }
        replace(same..<(prints.count - sameAtEnd), with: Array(read[same..<(read.count - sameAtEnd)]))
    }

    private func replace(_ range: Range<Int>, with new: [JournalPrint]) {
        prints.replaceSubrange(range, with: new)
        withCStringArray(Array(repeating: "", count: new.count)) { strings in
            gtk_string_list_splice(model.pointer, guint(range.lowerBound), guint(range.count), strings)
        }
    }

    private func bind(_ item: UnsafeMutableRawPointer) {
        let position = Int(gtk_list_item_get_position(gcast(item)))
        guard let row = rows[item], prints.indices.contains(position) else { return }
        let print = prints[position]
        let firstOfDay = position == 0 || !Calendar.current.isDate(prints[position - 1].started, inSameDayAs: print.started)
        row.show(print, at: position, day: firstOfDay ? HistoryText.day(print.started) : nil, thumbnails: thumbnails)
        if position >= prints.count - 20 { readMore() }
    }
}
