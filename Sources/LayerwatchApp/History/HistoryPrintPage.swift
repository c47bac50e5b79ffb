import CGtk
import Foundation
import GtkKit
import JournalKit
import StreamKit

/// One print of the journal, as the History page shows it when its row is activated (in a
/// navigation with its own back button): the job and its result, its facts, its first-layer and
/// final pictures, the timeline of its events and its videos. The journal's reads are synchronous,
/// so they and the pictures' decoding run on a worker; the page fills in as they come back. It
/// lives as long as its widget.
@MainActor
final class HistoryPrintPage {
    let widget: UnsafeMutablePointer<GtkWidget>
    let firstLayerPicture = PrintPictureView(caption: tr("First Layer"))
    let finalPicture = PrintPictureView(caption: tr("Final Picture"))
    /// A row per moment of the print, once its events are read.
    let timeline = adw_preferences_group_new()!
    /// A row per timelapse or recording of the print, once they are read; hidden when there is none.
    let videos = adw_preferences_group_new()!
    /// Whether the timeline and the videos are read and shown.
    private(set) var isFilled = false

    init(print: JournalPrint, store: JournalStore) {
        widget = adw_preferences_page_new()
        adw_preferences_page_set_title(gcast(widget), print.job ?? tr("Unnamed Job"))
        add(group(nil, [PrintHeading.make(print)]))
        add(group(nil, PrintDetails(print).rows.map { Self.valueRow($0.title, $0.value) }))

        let pictures = gtk_flow_box_new()!
        gtk_flow_box_set_selection_mode(gcast(pictures), GTK_SELECTION_NONE)
        gtk_flow_box_set_homogeneous(gcast(pictures), true.gboolean)
        gtk_flow_box_set_min_children_per_line(gcast(pictures), 1)
        gtk_flow_box_set_max_children_per_line(gcast(pictures), 2)
        gtk_flow_box_set_column_spacing(gcast(pictures), 12)
        gtk_flow_box_set_row_spacing(gcast(pictures), 12)
        for view in [firstLayerPicture, finalPicture] {
            gtk_flow_box_append(gcast(pictures), view.widget)
            gtk_widget_set_focusable(gtk_widget_get_parent(view.widget), false.gboolean)  // the picture's button takes the focus
        }
        add(group(tr("Pictures"), [pictures]))

        adw_preferences_group_set_title(gcast(timeline), tr("Timeline"))
        adw_preferences_group_set_title(gcast(videos), tr("Videos"))
        gtk_widget_set_visible(timeline, false.gboolean)
        gtk_widget_set_visible(videos, false.gboolean)
        add(timeline)
        add(videos)
        keepAlive(self, untilDestroyed: widget)
        read(print, from: store)
    }

    /// Reads the print's events and videos, then decodes its pictures, on a worker, each shown as
    /// it comes back.
    private func read(_ print: JournalPrint, from store: JournalStore) {
        DispatchQueue.global(qos: .userInitiated).async {
            let events = store.events(ofPrint: print.key)
            let videos = store.videos(ofPrint: print.key).map { (video: $0, exists: FileManager.default.fileExists(atPath: $0.file.path)) }
            MainLoopExecutor.main.runOnMainActor { [weak self] in self?.fill(PrintTimeline(print: print, events: events), videos, print: print) }
            let first = PrintPicture.load(print.firstLayerPicture)
            MainLoopExecutor.main.runOnMainActor { [weak self] in self?.firstLayerPicture.show(first) }
            let final = PrintPicture.load(print.finalPicture)
            MainLoopExecutor.main.runOnMainActor { [weak self] in self?.finalPicture.show(final) }
        }
    }

    private func fill(_ timeline: PrintTimeline, _ videos: [(video: JournalVideo, exists: Bool)], print: JournalPrint) {
        for entry in timeline.entries {
            let row = Self.valueRow(entry.title, PrintMoments.time(entry.at, sameDayAs: print.started), subtitle: entry.words)
            let icon = gtk_image_new_from_icon_name(entry.icon)!
            if let style = entry.styleClass { gtk_widget_add_css_class(icon, style) }
            adw_action_row_add_prefix(gcast(row), icon)
            adw_preferences_group_add(gcast(self.timeline), row)
        }
        gtk_widget_set_visible(self.timeline, true.gboolean)
        for (video, exists) in videos {
            adw_preferences_group_add(gcast(self.videos), Self.videoRow(video, exists: exists))
        }
        gtk_widget_set_visible(self.videos, (!videos.isEmpty).gboolean)
        isFilled = true
    }

    private func add(_ group: UnsafeMutablePointer<GtkWidget>) {
        adw_preferences_page_add(gcast(widget), gcast(group))
    }

    private func group(_ title: String?, _ children: [UnsafeMutablePointer<GtkWidget>]) -> UnsafeMutablePointer<GtkWidget> {
        let group = adw_preferences_group_new()!
        if let title { adw_preferences_group_set_title(gcast(group), title) }
        for child in children { adw_preferences_group_add(gcast(group), child) }
        return group
    }

    /// A row titled `title` with `value` at its end.
    private static func valueRow(_ title: String, _ value: String, subtitle: String? = nil) -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_action_row_new()!
        gtk_list_box_row_set_activatable(gcast(row), false.gboolean)
        adw_preferences_row_set_title(gcast(row), markupEscaped(title))
        if let subtitle { adw_action_row_set_subtitle(gcast(row), markupEscaped(subtitle)) }
        // A row gives its end no more than the least it asks: a value up to 24 characters keeps to
        // one line, a longer one (a camera's address) wraps at that width.
        let long = value.count > 24
        let label = makeLabel(value, classes: ["dim-label"], wraps: long)
        gtk_label_set_wrap_mode(gcast(label), PANGO_WRAP_WORD_CHAR)
        if long { gtk_label_set_width_chars(gcast(label), 24) }
        gtk_label_set_xalign(gcast(label), 1)
        gtk_label_set_justify(gcast(label), GTK_JUSTIFY_RIGHT)
        adw_action_row_add_suffix(gcast(row), label)
        return row
    }

    /// A video's row, named by its file: a click opens it in the desktop's video player and its
    /// button shows it in its folder (the app's Open and Show in Files, as a saved file's toast);
    /// a file deleted since says so.
    private static func videoRow(_ video: JournalVideo, exists: Bool) -> UnsafeMutablePointer<GtkWidget> {
        let row = adw_action_row_new()!
        adw_preferences_row_set_title(gcast(row), markupEscaped(video.file.lastPathComponent))
        adw_action_row_set_subtitle(gcast(row), !exists ? tr("File no longer exists")
                                    : video.kind == .timelapse ? tr("Timelapse") : tr("Recording"))
        adw_action_row_add_prefix(gcast(row), gtk_image_new_from_icon_name("video-x-generic-symbolic"))
        gtk_list_box_row_set_activatable(gcast(row), exists.gboolean)
        guard exists else { return row }
        gtk_actionable_set_action_target_value(gcast(row), g_variant_new_string(video.file.path))
        gtk_actionable_set_action_name(gcast(row), Feature.openFile.actionName)
        gtk_widget_set_tooltip_text(row, Feature.openFile.title)
        let show = gtk_button_new_from_icon_name("folder-open-symbolic")!
        gtk_widget_add_css_class(show, "flat")
        gtk_widget_set_valign(show, GTK_ALIGN_CENTER)
        gtk_widget_set_tooltip_text(show, Feature.showInFiles.title)
        setAccessibleLabel(show, Feature.showInFiles.title)
        gtk_actionable_set_action_target_value(gcast(show), g_variant_new_string(video.file.path))
        gtk_actionable_set_action_name(gcast(show), Feature.showInFiles.actionName)
        adw_action_row_add_suffix(gcast(row), show)
        return row
    }
}
