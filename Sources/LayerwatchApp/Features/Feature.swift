import CGtk
import CameraKit
import Foundation
import GtkKit

/// One thing the user can do, declared once: the action it is, its shortcut, the words for it, where
/// its button or menu item goes, its handler and when it is enabled. `Feature.all` (Features.swift)
/// feeds the GActions, the accelerators, the control bar, the tab bar's button, the header bar's
/// toggle, the primary menu, the farm tiles' menu, the farm's empty page, the mini windows' actions
/// and the shortcuts window, so adding a feature is one entry there plus its handler. Handlers and
/// checks see only a `FeatureContext`, so the table can be tried against a fake.
@MainActor
struct Feature {
    /// Which action map holds the action.
    enum Scope {
        /// The main window's: `win.NAME`.
        case window
        /// The application's: `app.NAME`.
        case application
        /// A picture's: `camera.NAME`, in the group of the widget that holds the picture and its
        /// controls (a tab's page, a mini window; `CameraActions`), so GTK routes its keys to the
        /// picture the keyboard focus is in.
        case camera
        /// A printer's: `printer.NAME`, in the group of each view of one printer (its tab's page, which
        /// its farm tile shares, a mini window; `PrinterActions`), so it acts on that printer
        /// whichever way it is activated. Its checks and handler are handed that printer
        /// (`PrinterContext`).
        case printer
    }

    /// The shortcuts window's group for the feature: the ids of the groups in data/shortcuts.ui.
    enum ShortcutGroup: String {
        case printers, print, camera, general
    }

    /// Where a control for the feature goes besides the keyboard.
    enum Placement: Equatable {
        /// A round button in every printer page's control bar.
        case controlBar(icon: String)
        /// The button at the end of the tab bar.
        case tabBar(icon: String)
        /// An item in section `section` of the primary menu.
        case menu(section: Int)
        /// A toggle button at the start of the header bar.
        case headerBar(icon: String)
        /// An item in each farm tile's menu (acting on that tile's printer, which opening the menu
        /// selects).
        case tileMenu
        /// An action of each mini window with an item in its menu (acting on that window's printer).
        case miniWindowMenu

        var controlBarIcon: String? { if case .controlBar(let icon) = self { icon } else { nil } }
        var tabBarIcon: String? { if case .tabBar(let icon) = self { icon } else { nil } }
        var menuSection: Int? { if case .menu(let section) = self { section } else { nil } }
        var headerBarIcon: String? { if case .headerBar(let icon) = self { icon } else { nil } }
        var tileMenuItem: Bool? { self == .tileMenu ? true : nil }
        var miniWindowAction: Bool? { self == .miniWindowMenu ? true : nil }
        var miniWindowMenuItem: Bool? { self == .miniWindowMenu ? true : nil }
    }

    /// What activating the feature does.
    enum Handler {
        /// A command.
        case command(@MainActor (FeatureContext) -> Void)
        /// An on/off setting, shown by toggle buttons; handed its new value.
        case toggle(@MainActor (FeatureContext, Bool) -> Void)
        /// A command taking a string, the action's target (a notification's printer id or video path).
        case textCommand(@MainActor (FeatureContext, String) -> Void)
        /// A command taking a time (the action's target: seconds since 1970, GVariant "x").
        case timeCommand(@MainActor (FeatureContext, Date) -> Void)
        /// A command on a picture (`Scope.camera`): handed the picture whose group was activated.
        case camera(@MainActor (CameraSurface) -> Void)
        /// A command on a tab's picture (`Scope.camera`): handed the page whose group was activated,
        /// which knows its camera, where it saves and where it speaks (a mini window has none).
        case page(@MainActor (PrinterPage) -> Void)
        /// An on/off setting of a tab's picture (`Scope.camera`), handed the page and its new value;
        /// `pageState` shows it.
        case pageToggle(@MainActor (PrinterPage, Bool) -> Void)
        /// A command on a printer (`Scope.printer`): handed the printer whose group was activated.
        case printer(@MainActor (PrinterContext) -> Void)
        /// One of `choices` (value, title) on a printer (`Scope.printer`), shown as radio items in a
        /// submenu; the marked one is what `choiceState` reports, never the last click. Handed the
        /// printer and the chosen value.
        case choice([(value: String, title: String)], @MainActor (PrinterContext, String) -> Void)
        /// A command taking a string on a printer (`Scope.printer`): handed the printer and the
        /// action's target (a dropped file's path).
        case printerText(@MainActor (PrinterContext, String) -> Void)
        /// An action GTK itself provides (`win.show-help-overlay`); only its shortcut is ours.
        case providedByGTK
    }

    let name: String
    var scope = Scope.window
    /// The words for it: tooltip, menu item, shortcuts window (translated).
    let title: String
    /// A printer's feature's words for the printer it acts on, where they depend on it (a Klipper
    /// printer's print is cancelled, a Bambu printer's stopped): the control bar's tooltip and the
    /// menus' items follow them, the shortcuts window keeps `title`.
    var currentTitle: (@MainActor (PrinterContext) -> String)?
    var accelerators: [String] = []
    /// Where the shortcuts window lists it; nil when it has no shortcut.
    var shortcutGroup: ShortcutGroup?
    var placements: [Placement] = []
    let handler: Handler
    /// Whether it can be used now; asked again whenever the selection, a state or fullscreen changes.
    var isEnabled: @MainActor (FeatureContext) -> Bool = { _ in true }
    /// For a printer's feature (`Scope.printer`), in place of `isEnabled`: whether it can be used
    /// on the printer it acts on now.
    var applies: @MainActor (PrinterContext) -> Bool = { _ in true }
    /// For a toggle showing a value kept elsewhere (the selected printer's setting): that value,
    /// asked again with `isEnabled`. Nil for a toggle whose own state is the setting.
    var state: (@MainActor (FeatureContext) -> Bool)?
    /// For a printer's choice: the value its printer has now ("" for none), asked again with `applies`.
    var choiceState: (@MainActor (PrinterContext) -> String)?
    /// For a printer's feature: why it cannot be used although it applies (a printer that refuses
    /// unsigned commands): its controls then stay in place, insensitive, saying so in their
    /// tooltip; nil while it can.
    var lockedReason: (@MainActor (PrinterContext) -> String?)?
    /// True when its controls are left out, rather than greyed, while it does not apply (and is
    /// not locked).
    var hiddenWhenDisabled = false
    /// For a tab's picture's feature (`Handler.page`): whether it can be used on that page now,
    /// asked again when its picture's state changes. Nil: whenever there is a picture.
    var isEnabledOnPage: (@MainActor (PrinterPage) -> Bool)?
    /// For a tab's picture's toggle (`Handler.pageToggle`): its value on that page.
    var pageState: (@MainActor (PrinterPage) -> Bool)?

    /// Whether its controls are toggle buttons and check items.
    var isToggle: Bool {
        switch handler {
        case .toggle, .pageToggle: true
        default: false
        }
    }

    /// The action's full name, as buttons, menus and accelerators name it.
    var actionName: String {
        switch scope {
        case .window: "win." + name
        case .application: "app." + name
        case .camera: "camera." + name
        case .printer: "printer." + name
        }
    }

    /// The title with its first shortcut, for a tooltip: "Save Snapshot (Ctrl+S)".
    var tooltip: String { tooltip(title) }

    /// Its words for `printer` (a printer's feature), else its title.
    func title(for printer: PrinterContext?) -> String { printer.flatMap { currentTitle?($0) } ?? title }

    /// Its tooltip for `printer`.
    func tooltip(for printer: PrinterContext) -> String { tooltip(title(for: printer)) }

    private func tooltip(_ title: String) -> String {
        guard let accelerator = accelerators.first else { return title }
        return "\(title) (\(Self.label(of: accelerator)))"
    }

    /// The user-facing spelling of an accelerator: "<Control>s" → "Ctrl+S".
    static func label(of accelerator: String) -> String {
        var key: guint = 0
        var modifiers = GdkModifierType(rawValue: 0)
        guard Bool(gboolean: gtk_accelerator_parse(accelerator, &key, &modifiers)),
              let label = String(takingGLibString: gtk_accelerator_get_label(key, modifiers)) else { return accelerator }
        return label
    }

    /// Adds its item to `menu` (the primary menu, a farm tile's, a mini window's) — for a choice, a
    /// submenu of its values —, left out while it does not show when it says so (greyed while locked);
    /// titled for the printer it acts on when given.
    func appendItem(to menu: OpaquePointer, for printer: PrinterContext? = nil) {
        let title = title(for: printer)
        let item: GObjectRef<OpaquePointer>
        if case .choice(let choices, _) = handler {
            let submenu = GObjectRef(adopting: g_menu_new()!)
            for choice in choices {
                let entry = GObjectRef(adopting: g_menu_item_new(choice.title, nil)!)
                g_menu_item_set_action_and_target_value(entry.pointer, actionName, g_variant_new_string(choice.value))
                withExtendedLifetime(entry) { g_menu_append_item(submenu.pointer, entry.pointer) }
            }
            item = withExtendedLifetime(submenu) { GObjectRef(adopting: g_menu_item_new_submenu(title, gcast(submenu.pointer))!) }
            g_menu_item_set_attribute_value(item.pointer, "submenu-action", g_variant_new_string(actionName))
        } else {
            item = GObjectRef(adopting: g_menu_item_new(title, actionName)!)
        }
        if hiddenWhenDisabled {
            // A lockable feature's action leaves the map while it does not show (InstalledFeatures).
            let when = lockedReason == nil ? "action-disabled" : "action-missing"
            g_menu_item_set_attribute_value(item.pointer, "hidden-when", g_variant_new_string(when))
        }
        withExtendedLifetime(item) { g_menu_append_item(menu, item.pointer) }
    }

    /// Whether a printer's feature's controls show for `printer` now: while it can be used, while it
    /// is locked, or always unless it hides when disabled.
    func isShown(for printer: PrinterContext) -> Bool {
        !hiddenWhenDisabled || applies(printer) || lockedReason?(printer) != nil
    }

    /// Adds the action to `map` (the window, the application), acting on `context`, and returns
    /// it, or nil for an action GTK provides, a picture's or a printer's.
    func install(on map: some GObjectPointer, for context: FeatureContext) -> OpaquePointer? {
        switch handler {
        case .command(let run):
            return addAction(map, name) { [weak context] in if let context { run(context) } }
        case .toggle(let run):
            return addToggleAction(map, name, initial: false) { [weak context] on in if let context { run(context, on) } }
        case .textCommand(let run):
            return addStringAction(map, name) { [weak context] text in if let context { run(context, text) } }
        case .timeCommand(let run):
            return addInt64Action(map, name) { [weak context] seconds in
                if let context { run(context, Date(timeIntervalSince1970: TimeInterval(seconds))) }
            }
        case .camera, .page, .pageToggle, .printer, .choice, .printerText, .providedByGTK:
            return nil
        }
    }

    /// Adds the action of a printer's feature (`Scope.printer`) to `map`, acting on `printer`, and
    /// returns it; nil for any other feature.
    func install(on map: some GObjectPointer, acting printer: PrinterContext) -> OpaquePointer? {
        switch handler {
        case .printer(let run):
            return addAction(map, name) { [weak printer] in if let printer { run(printer) } }
        case .choice(_, let run):
            return addChoiceAction(map, name) { [weak printer] value in if let printer { run(printer, value) } }
        case .printerText(let run):
            return addStringAction(map, name) { [weak printer] text in if let printer { run(printer, text) } }
        default:
            return nil
        }
    }

    /// Adds the action of a picture's feature (`Scope.camera`) to `map`, acting on `surface` or,
    /// for a tab's picture's feature, on `page`, which holds it (none without a page), and returns it.
    @discardableResult
    func install(on map: some GObjectPointer, acting surface: CameraSurface, of page: PrinterPage?) -> OpaquePointer? {
        switch handler {
        case .camera(let run):
            return addAction(map, name) { [weak surface] in if let surface { run(surface) } }
        case .page(let run):
            return page.map { page in addAction(map, name) { [weak page] in if let page { run(page) } } }
        case .pageToggle(let run):
            return page.map { page in addToggleAction(map, name, initial: false) { [weak page] on in if let page { run(page, on) } } }
        default:
            return nil
        }
    }
}
