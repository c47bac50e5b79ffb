import CGtk
import Foundation
import GtkKit
import JournalKit
import PrinterKit
import StreamKit

/// The Preferences window's Print Journal group: how long the journal keeps its prints' pictures
/// and how much disk they may take in all (a change prunes at once: `PictureRetention`), and the
/// disk its pictures take, counted off the main loop when the window opens and after each change
/// of a setting.
@MainActor
final class JournalPreferences {
    let group: UnsafeMutablePointer<GtkWidget>
    let keepRow: UnsafeMutablePointer<GtkWidget>
    let limitRow: UnsafeMutablePointer<GtkWidget>
    /// Tells the pictures' disk use in its subtitle.
    let diskUseRow: UnsafeMutablePointer<GtkWidget>
    private let store: JournalStore?
    private var observation: PrinterLibrary.Observation?
    /// The days kept and the limit when the disk use was last counted.
    private var countedFor: (days: Int, limitMB: Int)?

    init(rows: PreferenceRows, library: PrinterLibrary, store: JournalStore?) {
        self.store = store
        keepRow = rows.choiceRow(tr("Keep Pictures"), choices: [(30, tr("30 Days")), (90, tr("90 Days")), (365, tr("1 Year")), (0, tr("Forever"))],
                                 \.keepPicturesDays)
        adw_action_row_set_subtitle(gcast(keepRow), tr("Older pictures of prints are deleted. The prints stay in the journal."))
        limitRow = rows.choiceRow(tr("Size Limit"), choices: [(500, tr("500 MB")), (1000, tr("1 GB")), (5000, tr("5 GB")), (20000, tr("20 GB")),
                                                               (0, tr("No Limit"))], \.picturesLimitMB)
        adw_action_row_set_subtitle(gcast(limitRow), tr("Beyond this size, the oldest pictures of prints are deleted first."))
        diskUseRow = adw_action_row_new()
        adw_preferences_row_set_title(gcast(diskUseRow), tr("Disk Use"))
        gtk_list_box_row_set_activatable(gcast(diskUseRow), false.gboolean)
        group = PreferenceRows.group(tr("Print Journal"), [keepRow, limitRow, diskUseRow])
        // After `PictureRetention`'s observation, made at start: a prune is queued before the count.
        observation = library.observePreferences { [weak self] preferences in
            self?.count(for: preferences.keepPicturesDays, limitMB: preferences.picturesLimitMB)
        }
    }

    private func count(for days: Int, limitMB: Int) {
        guard days != countedFor?.days || limitMB != countedFor?.limitMB else { return }
        countedFor = (days, limitMB)
        guard let store else { return adw_action_row_set_subtitle(gcast(diskUseRow), tr("No print journal is open")) }
        adw_action_row_set_subtitle(gcast(diskUseRow), tr("Counting…"))
        store.picturesDiskUse(on: MainLoopExecutor.main) { bytes in
            MainActor.assumeIsolated { [weak self] in self?.show(bytes: bytes) }
        }
    }

    private func show(bytes: Int64) {
        let size = String(takingGLibString: g_format_size(guint64(max(0, bytes)))) ?? "\(bytes)"
        adw_action_row_set_subtitle(gcast(diskUseRow), String(format: tr("%@ of pictures"), size))
    }
}
