import CGtk
import Foundation
import GtkKit
import StreamKit

/// The header bar's Printers menu: every saved printer, checked while its tab is open. Closing a
/// tab never removes a printer (it stays watched, in the farm view and in notifications), so this
/// is where its tab comes back: choosing a printer whose tab is closed opens it again at its place
/// and selects it; choosing one whose tab is open closes the tab. Reopen All Tabs shows while a
/// tab is closed. Its actions are the window's, one per listed printer.
@MainActor
final class PrintersMenu {
    /// A printer as the menu lists it.
    struct Entry: Equatable {
        let id: UUID
        let name: String
        /// Whether its tab is open (the item is checked).
        let open: Bool
    }

    /// The window's action that opens every closed tab again (the menu's last item, and the
    /// button of the page shown while every tab is closed).
    static let reopenAllAction = "win.reopen-tabs"

    let button: UnsafeMutablePointer<GtkWidget>
    /// The window, whose action map holds the menu's actions.
    private let window: UnsafeMutablePointer<GtkWidget>
    private let printers = GObjectRef(adopting: g_menu_new()!)
    /// Each listed printer's on/off action.
    private var actions: [UUID: OpaquePointer] = [:]
    private var listed: [Entry] = []
    private var reopenAll: OpaquePointer?

    /// The user checked (true) or unchecked a printer.
    var onChoose: @MainActor (UUID, Bool) -> Void = { _, _ in }
    /// The user chose Reopen All Tabs.
    var onReopenAll: @MainActor () -> Void = {}

    init(window: UnsafeMutablePointer<GtkWidget>) {
        self.window = window
        let menu = GObjectRef(adopting: g_menu_new()!)
        g_menu_append_section(menu.pointer, nil, gcast(printers.pointer))
        let more = GObjectRef(adopting: g_menu_new()!)
        let item = GObjectRef(adopting: g_menu_item_new(tr("Reopen All Tabs"), Self.reopenAllAction)!)
        g_menu_item_set_attribute_value(item.pointer, "hidden-when", g_variant_new_string("action-disabled"))
        withExtendedLifetime(item) { g_menu_append_item(more.pointer, item.pointer) }
        withExtendedLifetime(more) { g_menu_append_section(menu.pointer, nil, gcast(more.pointer)) }
        button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(gcast(button), "printer-symbolic")
        withExtendedLifetime(menu) { gtk_menu_button_set_menu_model(gcast(button), gcast(menu.pointer)) }
        gtk_widget_set_tooltip_text(button, tr("Printers"))
        setAccessibleLabel(button, tr("Printers"))
        let name = String(Self.reopenAllAction.dropFirst("win.".count))
        reopenAll = addAction(window, name) { [weak self] in self?.onReopenAll() }
    }

    /// Lists `entries` (the saved printers, in their order) with their tabs' state; the button
    /// shows while there is one.
    func show(_ entries: [Entry]) {
        if entries.map(\.id) != listed.map(\.id) || entries.map(\.name) != listed.map(\.name) {
            for id in actions.keys where !entries.contains(where: { $0.id == id }) {
                g_action_map_remove_action(gcast(window), Self.actionName(id))
                actions[id] = nil
            }
            g_menu_remove_all(printers.pointer)
            for entry in entries {
                let id = entry.id
                if actions[id] == nil {
                    actions[id] = addToggleAction(window, Self.actionName(id), initial: entry.open) { [weak self] open in
                        self?.onChoose(id, open)
                    }
                }
                // A menu takes "_" as the next letter's mnemonic: a name's own is doubled.
                let label = entry.name.replacingOccurrences(of: "_", with: "__")
                let item = GObjectRef(adopting: g_menu_item_new(label, "win." + Self.actionName(id))!)
                withExtendedLifetime(item) { g_menu_append_item(printers.pointer, item.pointer) }
            }
        }
        for entry in entries {
            if let action = actions[entry.id] { setToggleState(action, entry.open) }
        }
        listed = entries
        if let reopenAll { g_simple_action_set_enabled(reopenAll, entries.contains { !$0.open }.gboolean) }
        gtk_widget_set_visible(button, (!entries.isEmpty).gboolean)
    }

    /// The printers listed and whether each one's tab is open (for tests).
    var entries: [Entry] { listed }

    private static func actionName(_ id: UUID) -> String { "printer-tab-\(id.uuidString)" }
}
