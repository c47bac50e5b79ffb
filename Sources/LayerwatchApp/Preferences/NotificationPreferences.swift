import CGtk
import Foundation
import GtkKit
import PrinterKit
import StreamKit

/// The Preferences window's Notifications page: a switch per print event (and how long a camera
/// must be lost), the failure's sound, and a switch per saved printer (`Printer.notifies`; the
/// printer dialog has it too), the list following the library.
@MainActor
final class NotificationPreferences {
    let page: UnsafeMutablePointer<GtkWidget>
    private unowned let library: PrinterLibrary
    /// The per-printer switches, rebuilt when the printers change.
    private let printerList: UnsafeMutablePointer<GtkWidget>
    private let printersGroup: UnsafeMutablePointer<GtkWidget>
    /// Each printer's switch, by id (tests flip them).
    private(set) var printerSwitches: [UUID: UnsafeMutablePointer<GtkWidget>] = [:]
    /// What the rows show (id, name, whether it has status): a change of anything else only sets the switches.
    private var listed: [String] = []

    init(rows: PreferenceRows, library: PrinterLibrary) {
        self.library = library
        let events = PreferenceRows.group(tr("Print Events"), [
            rows.eventRow(tr("Print Finished"), .finished),
            rows.eventRow(tr("Print Failed"), .failed),
            rows.eventRow(tr("Print Cancelled"), subtitle: tr("Not when you stopped it from this Layerwatch"), .cancelled),
            rows.eventRow(tr("Print Paused"), .paused),
            rows.eventRow(tr("Printer Alerts"), subtitle: tr("Faults a Bambu Lab printer reports (HMS)"), .alert),
            rows.eventRow(tr("Camera Lost"), subtitle: tr("A camera that stays unreachable while it is shown or recorded"), .cameraLost),
            rows.numberRow(tr("Minutes Before a Lost Camera Is Notified"), range: Preferences.cameraLostRange, \.cameraLostMinutes) {
                $0.notifiedEvents.contains(.cameraLost)
            },
            rows.switchRow(tr("Sound on Failure"), subtitle: tr("A failed print's notification asks for your attention"), \.soundOnFailure),
        ])
        printerList = gtk_list_box_new()
        gtk_list_box_set_selection_mode(gcast(printerList), GTK_SELECTION_NONE)
        gtk_widget_add_css_class(printerList, "boxed-list")
        printersGroup = PreferenceRows.group(tr("Printers"), description: tr("Printers whose prints are notified"), [printerList])
        page = PreferenceRows.page(tr("Notifications"), icon: "preferences-system-notifications-symbolic", [events, printersGroup])
    }

    /// Lists a switch for each of `printers`; one without print status has nothing to notify.
    func show(_ printers: [Printer]) {
        let rows = printers.map { "\($0.id) \($0.statusEndpoint != nil) \($0.name)" }
        guard rows != listed else {
            for printer in printers { printerSwitches[printer.id].map { gtk_switch_set_active(gcast($0), printer.notifies.gboolean) } }
            return
        }
        listed = rows
        while let row = gtk_widget_get_first_child(printerList) { gtk_list_box_remove(gcast(printerList), row) }
        printerSwitches = [:]
        for printer in printers {
            let toggle = gtk_switch_new()!
            let hasStatus = printer.statusEndpoint != nil
            gtk_switch_set_active(gcast(toggle), (printer.notifies && hasStatus).gboolean)
            let row = PreferenceRows.row(printer.name, subtitle: hasStatus ? nil : tr("Layerwatch reads no print status from it"), suffix: toggle)
            adw_action_row_set_activatable_widget(gcast(row), toggle)
            gtk_widget_set_sensitive(row, hasStatus.gboolean)
            let id = printer.id
            connectNotify(toggle, "active") { [weak self] in
                guard let self, var printer = library.printer(id: id) else { return }
                let on = Bool(gboolean: gtk_switch_get_active(gcast(toggle)))
                guard printer.notifies != on else { return }
                printer.notifies = on
                library.upsert(printer)
            }
            printerSwitches[id] = toggle
            gtk_list_box_append(gcast(printerList), row)
        }
        gtk_widget_set_visible(printersGroup, (!printers.isEmpty).gboolean)
    }
}
