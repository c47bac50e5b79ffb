import CGtk
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
    }

    /// The shortcuts window's group for the feature: the ids of the groups in data/shortcuts.ui.
    enum ShortcutGroup: String {
        case printers, camera, general
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
        /// An action of each mini window too, so its shortcut works there (acting on the window
        /// that has the keyboard).
        case miniWindow

        var controlBarIcon: String? { if case .controlBar(let icon) = self { icon } else { nil } }
        var tabBarIcon: String? { if case .tabBar(let icon) = self { icon } else { nil } }
        var menuSection: Int? { if case .menu(let section) = self { section } else { nil } }
        var headerBarIcon: String? { if case .headerBar(let icon) = self { icon } else { nil } }
        var tileMenuItem: Bool? { self == .tileMenu ? true : nil }
        var miniWindowAction: Bool? { self == .miniWindow ? true : nil }
    }

    /// What activating the feature does.
    enum Handler {
        /// A command.
        case command(@MainActor (FeatureContext) -> Void)
        /// An on/off setting, shown by toggle buttons; handed its new value.
        case toggle(@MainActor (FeatureContext, Bool) -> Void)
        /// A command taking a string, the action's target (a notification's printer id or video path).
        case textCommand(@MainActor (FeatureContext, String) -> Void)
        /// An action GTK itself provides (`win.show-help-overlay`); only its shortcut is ours.
        case providedByGTK
    }

    let name: String
    var scope = Scope.window
    /// The words for it: tooltip, menu item, shortcuts window (translated).
    let title: String
    var accelerators: [String] = []
    /// Where the shortcuts window lists it; nil when it has no shortcut.
    var shortcutGroup: ShortcutGroup?
    var placements: [Placement] = []
    let handler: Handler
    /// Whether it can be used now; asked again whenever the selection, a state or fullscreen changes.
    var isEnabled: @MainActor (FeatureContext) -> Bool = { _ in true }
    /// For a toggle showing a value kept elsewhere (the selected printer's setting): that value,
    /// asked again with `isEnabled`. Nil for a toggle whose own state is the setting.
    var state: (@MainActor (FeatureContext) -> Bool)?
    /// True when its menu item is left out, rather than greyed, while it does not apply.
    var hiddenWhenDisabled = false

    /// The action's full name, as buttons, menus and accelerators name it.
    var actionName: String { (scope == .window ? "win." : "app.") + name }

    /// The title with its first shortcut, for a tooltip: "Save Snapshot (Ctrl+S)".
    var tooltip: String {
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

    /// Adds its item to `menu` (the primary menu, a farm tile's), left out while disabled when it
    /// says so.
    func appendItem(to menu: OpaquePointer) {
        let item = GObjectRef(adopting: g_menu_item_new(title, actionName)!)
        if hiddenWhenDisabled {
            g_menu_item_set_attribute_value(item.pointer, "hidden-when", g_variant_new_string("action-disabled"))
        }
        withExtendedLifetime(item) { g_menu_append_item(menu, item.pointer) }
    }

    /// Adds the action to `map` (the window or the application), acting on `context`, and returns
    /// it, or nil for an action GTK provides.
    func install(on map: some GObjectPointer, for context: FeatureContext) -> OpaquePointer? {
        switch handler {
        case .command(let run):
            return addAction(map, name) { [weak context] in if let context { run(context) } }
        case .toggle(let run):
            return addToggleAction(map, name, initial: false) { [weak context] on in if let context { run(context, on) } }
        case .textCommand(let run):
            return addStringAction(map, name) { [weak context] text in if let context { run(context, text) } }
        case .providedByGTK:
            return nil
        }
    }
}
