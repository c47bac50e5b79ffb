import CGtk
import GtkKit
import StreamKit

/// What the window shows where the tabs would be once every saved printer's tab is closed: not
/// the first start's welcome, since the printers are still saved and watched, but that their tabs
/// are closed, with Reopen All Tabs (the suggested action) and the farm view, which shows them all.
@MainActor
enum ClosedTabsPage {
    static func make() -> UnsafeMutablePointer<GtkWidget> {
        let page = adw_status_page_new()!
        adw_status_page_set_icon_name(gcast(page), "printer-symbolic")
        adw_status_page_set_title(gcast(page), tr("No Open Tabs"))
        adw_status_page_set_description(gcast(page), tr("Your printers are still watched, and you are told when a print finishes or fails. Reopen their tabs, or see them all at once in the farm view."))
        let buttons = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_widget_set_halign(buttons, GTK_ALIGN_CENTER)
        for (title, action, suggested) in [(tr("Reopen All Tabs"), PrintersMenu.reopenAllAction, true),
                                           (Feature.farmView.title, Feature.farmView.actionName, false)] {
            let button = gtk_button_new_with_label(title)!
            gtk_actionable_set_action_name(gcast(button), action)
            gtk_widget_add_css_class(button, "pill")
            if suggested { gtk_widget_add_css_class(button, "suggested-action") }
            gtk_box_append(gcast(buttons), button)
        }
        adw_status_page_set_child(gcast(page), buttons)
        return page
    }
}
