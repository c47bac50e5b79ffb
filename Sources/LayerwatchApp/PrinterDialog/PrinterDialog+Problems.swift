import CGtk
import GtkKit
import PrinterKit
import StatusKit
import StreamKit

/// What the printer dialog says is wrong, each under its own field: what validation finds (for a
/// field once the user edited and left it, for every field after a Save or test of an invalid
/// form), and what "Find Cameras" and "Test Connection" found (`CheckFailurePlacement`), until that
/// field changes or a check passes. Add/Save is sensitive only while the form is valid and holds no
/// code or key a check saw rejected; Enter while it is grey says why (`PrinterDialog+Keyboard`). A name
/// another saved printer has is warned about as it is typed, without keeping the form from saving:
/// two printers of one name cannot be told apart by name on the command line.
extension PrinterDialog {
    /// The form's fields by the draft's field they edit.
    var fieldsByProblem: [(PrinterDraft.Field, FormField)] {
        [(.kind, kind), (.name, name), (.host, host), (.model, variantRow), (.apiPort, apiPort), (.user, apiUser), (.accessCode, accessCode),
         (.serial, serial), (.url, url), (.cameras, cameras)]
    }

    /// Follows the user's edits of the text fields: an edit drops the field's check message (and
    /// of the API's fields, the search for the old API's cameras); leaving an edited field shows
    /// what is wrong with it.
    func watchEdits() {
        let apiFields: Set<PrinterDraft.Field> = [.host, .apiPort, .user, .accessCode]
        for (field, formField) in fieldsByProblem where field != .kind && field != .cameras {
            formField.onChange { [weak self] in
                guard let self else { return }
                if apiFields.contains(field) { cameraList.cancel() }
                checkProblems[field] = nil
                rejections[field] = nil
                edited.insert(field)
                if field == .url { listTypedURL() }
                revalidate()
            }
            let focus = gtk_event_controller_focus_new()!
            connectSignal(focus, "leave") { [weak self] in
                guard let self, edited.contains(field) else { return }
                if field == .host { splitAddress() }
                leftEdited.insert(field)
                showProblems()
            }
            gtk_widget_add_controller(formField.entry, focus)
        }
    }

    /// Makes Add/Save sensitive when the form is valid and the messages follow the edits.
    func revalidate() {
        gtk_widget_set_sensitive(saveButton, isValid.gboolean)
        showProblems()
    }

    var isValid: Bool { blockingProblems.isEmpty }

    /// What keeps the form from being saved, by field: a rejected code or key, and what validation finds.
    var blockingProblems: [PrinterDraft.Field: String] {
        guard case .failure(let found) = draft.printers() else { return rejections }
        return rejections.merging(found.messages) { rejected, _ in rejected }
    }

    /// Shows under each field what a check found wrong with it, else what validation finds once it may.
    func showProblems() {
        let problems = blockingProblems
        for (field, formField) in fieldsByProblem {
            let shows = attemptedSave || leftEdited.contains(field) || rejections[field] != nil
            formField.showError(checkProblems[field] ?? (shows ? problems[field] : nil))
        }
        offerWebRTCAddress()
        let taken = !choice.isGo2RTC && otherNames.contains(name.text.trimmingCharacters(in: .whitespacesAndNewlines))
        name.showWarning(taken ? tr("Another printer already has this name.") : nil)
    }

    /// Asks the Klipper, OctoPrint or go2rtc host for its cameras off the main loop and lists them:
    /// every playable one that answered checked for a new printer, the one the printer shows when editing.
    func findCameras() {
        splitAddress()
        let target: CameraSearch.Target
        let asked: Result<CameraSearch.Target, PrinterDraft.Problems> = choice.isGo2RTC ? draft.go2rtcImport().map { .go2rtc($0) }
                                                                                        : draft.statusEndpoint().map { .statusAPI($0) }
        switch asked {
        case .failure:
            leftEdited.formUnion([.host, .apiPort, .accessCode, .user, .serial])
            return showProblems()
        case .success(let found):
            target = found
        }
        checkProblems = [:]
        showProblems()
        // A new printer takes every playable camera that answered; an edited one shows those it has
        // checked (a camera it has that does not answer now stays: unchecked, it would be removed).
        let kept = editing.map { Set($0.cameras.compactMap(\.url)) }
        let hasPort = choice.shows(.apiPort)
        cameraList.find(target, checked: { found in kept.map { found.url.map($0.contains) ?? false } ?? (found.unreachable == nil) }) { [weak self] failure in
            self?.showCheckProblem(CheckFailurePlacement(failure, hasPort: hasPort))
        }
    }

    func showCheckProblem(_ placed: CheckFailurePlacement) {
        checkProblems[placed.field] = placed.message
        if placed.isRejection { rejections[placed.field] = placed.message }
        revalidate()
    }
}
