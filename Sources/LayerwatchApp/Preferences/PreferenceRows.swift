import CGtk
import GtkKit
import PrinterKit
import StreamKit

/// The rows the Preferences window is made of (GNOME's: a title, a subtitle, a control at the end),
/// each bound to one field of `Preferences`: it shows the field as the library has it, follows
/// every change (`refresh`), and saves what the user sets through `library.setPreferences`.
@MainActor
final class PreferenceRows {
    private unowned let library: PrinterLibrary
    /// Each row's way to show the preferences as they are now.
    private var refreshers: [@MainActor (Preferences) -> Void] = []

    init(library: PrinterLibrary) {
        self.library = library
    }

    /// Shows `preferences` in every row made so far (setting a control to what it shows already
    /// emits nothing, so this never saves).
    func refresh(_ preferences: Preferences) {
        refreshers.forEach { $0(preferences) }
    }

    /// Saves the preferences with `change` applied.
    func change(_ change: (inout Preferences) -> Void) {
        var preferences = library.config.preferences
        change(&preferences)
        library.setPreferences(preferences)
    }

    /// A row with a switch at its end for one field; the whole row toggles it.
    func switchRow(_ title: String, subtitle: String? = nil, _ field: WritableKeyPath<Preferences, Bool>) -> UnsafeMutablePointer<GtkWidget> {
        toggleRow(title, subtitle: subtitle, isOn: { $0[keyPath: field] }, set: { $0[keyPath: field] = $1 })
    }

    /// A switch row for one of the notified events.
    func eventRow(_ title: String, subtitle: String? = nil, _ event: Preferences.Event) -> UnsafeMutablePointer<GtkWidget> {
        toggleRow(title, subtitle: subtitle, isOn: { $0.notifiedEvents.contains(event) }, set: { preferences, on in
            if on { preferences.notifiedEvents.insert(event) } else { preferences.notifiedEvents.remove(event) }
        })
    }

    /// A row whose switch shows `isOn` and saves through `set`.
    private func toggleRow(_ title: String, subtitle: String?, isOn: @escaping (Preferences) -> Bool,
                           set: @escaping (inout Preferences, Bool) -> Void) -> UnsafeMutablePointer<GtkWidget> {
        let toggle = gtk_switch_new()!
        let row = Self.row(title, subtitle: subtitle, suffix: toggle)
        adw_action_row_set_activatable_widget(gcast(row), toggle)
        refreshers.append { gtk_switch_set_active(gcast(toggle), isOn($0).gboolean) }
        connectNotify(toggle, "active") { [weak self] in
            let on = Bool(gboolean: gtk_switch_get_active(gcast(toggle)))
            self?.change { set(&$0, on) }
        }
        return row
    }

    /// A row with a spin button for whole numbers in `range`, sensitive while `enabled` says.
    func numberRow(_ title: String, subtitle: String? = nil, range: ClosedRange<Int>, _ field: WritableKeyPath<Preferences, Int>,
                   enabled: @escaping (Preferences) -> Bool) -> UnsafeMutablePointer<GtkWidget> {
        let spin = gtk_spin_button_new_with_range(Double(range.lowerBound), Double(range.upperBound), 1)!
        gtk_widget_set_valign(spin, GTK_ALIGN_CENTER)
        let row = Self.row(title, subtitle: subtitle, suffix: spin)
        refreshers.append {
            gtk_spin_button_set_value(gcast(spin), Double($0[keyPath: field]))
            gtk_widget_set_sensitive(row, enabled($0).gboolean)
        }
        connectSignal(spin, "value-changed") { [weak self] in
            let value = Int(gtk_spin_button_get_value_as_int(gcast(spin)))
            self?.change { $0[keyPath: field] = value }
        }
        return row
    }

    /// A combo row offering `choices` (value, title) for one field.
    func choiceRow<Value: Equatable>(_ title: String, choices: [(value: Value, title: String)],
                                     _ field: WritableKeyPath<Preferences, Value>) -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_combo_row_new()!
        adw_preferences_row_set_title(gcast(row), title)
        setChoices(of: row, choices.map(\.title))
        refreshers.append { preferences in
            let index = choices.firstIndex { $0.value == preferences[keyPath: field] } ?? 0
            adw_combo_row_set_selected(gcast(row), guint(index))
        }
        connectNotify(row, "selected") { [weak self] in
            let index = Int(adw_combo_row_get_selected(gcast(row)))
            guard choices.indices.contains(index) else { return }
            self?.change { $0[keyPath: field] = choices[index].value }
        }
        return row
    }

    /// A row telling `text` beside a warning sign, shown while `shown` says, under the row it is about.
    func warningRow(_ text: String, shownWhen shown: @escaping (Preferences) -> Bool) -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(gcast(row), text)
        adw_preferences_row_set_use_markup(gcast(row), false.gboolean)
        adw_action_row_set_title_lines(gcast(row), 0)
        gtk_list_box_row_set_activatable(gcast(row), false.gboolean)
        let icon = gtk_image_new_from_icon_name("dialog-warning-symbolic")!
        gtk_widget_add_css_class(icon, "warning")
        adw_action_row_add_prefix(gcast(row), icon)
        gtk_widget_add_css_class(row, "warning")
        refreshers.append { gtk_widget_set_visible(row, shown($0).gboolean) }
        return row
    }

    /// An AdwActionRow with `suffix` at its end.
    static func row(_ title: String, subtitle: String? = nil, suffix: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(gcast(row), title)
        if let subtitle { adw_action_row_set_subtitle(gcast(row), subtitle) }
        gtk_widget_set_valign(suffix, GTK_ALIGN_CENTER)
        adw_action_row_add_suffix(gcast(row), suffix)
        return row
    }

    /// A titled group of `rows`.
    static func group(_ title: String?, description: String? = nil, _ rows: [UnsafeMutablePointer<GtkWidget>]) -> UnsafeMutablePointer<GtkWidget> {
        let group = adw_preferences_group_new()!
        if let title { adw_preferences_group_set_title(gcast(group), title) }
        if let description { adw_preferences_group_set_description(gcast(group), description) }
        rows.forEach { adw_preferences_group_add(gcast(group), $0) }
        return group
    }

    /// A page of `groups`, with its title and icon in the window's switcher.
    static func page(_ title: String, icon: String, _ groups: [UnsafeMutablePointer<GtkWidget>]) -> UnsafeMutablePointer<GtkWidget> {
        let page = adw_preferences_page_new()!
        adw_preferences_page_set_title(gcast(page), title)
        adw_preferences_page_set_icon_name(gcast(page), icon)
        groups.forEach { adw_preferences_page_add(gcast(page), gcast($0)) }
        return page
    }
}
