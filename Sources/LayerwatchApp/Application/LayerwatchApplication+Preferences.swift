import CGtk
import Foundation
import GtkKit
import PrinterKit

/// The application's side of the Preferences window: opening it over the main window, and what its
/// Printers page does to the saved list, the tabs and the mini windows.
extension LayerwatchApplication {
    func showPreferences() {
        preferences.show(over: window?.window, library: library, actions: PrinterPreferences.Actions(
            move: { [weak self] id, offset in self?.movePrinter(id, by: offset) },
            edit: { [weak self] id in
                guard let self, let printer = library.printer(id: id) else { return }
                showDialog(editing: printer)
            },
            remove: { [weak self] id, parent in
                guard let self, let printer = library.printer(id: id) else { return }
                editor.confirmRemoval(of: printer, over: parent)
            }))
    }

    /// Swaps the printer with its neighbour in the saved order: its tab moves (and the tabs' order
    /// is saved), or, with no tab to move, the saved order only.
    private func movePrinter(_ id: UUID, by offset: Int) {
        var ids = library.config.printers.map(\.id)
        guard let index = ids.firstIndex(of: id), ids.indices.contains(index + offset) else { return }
        ids.swapAt(index, index + offset)
        if let tabs = window?.tabs, let page = tabs.page(id: id), let neighbour = tabs.page(id: ids[index]),
           let position = tabs.position(of: neighbour) {
            tabs.move(page, to: position)
        } else {
            library.reorder(ids)
        }
    }
}
