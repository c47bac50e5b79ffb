import CGtk
import CLayerwatch
import Foundation
import GtkKit
import PrinterKit
import StatusKit
import StreamKit

/// The Add/Edit Printer dialog: the type of printer or camera (a `PrinterChoice`, which says the
/// fields shown and what they say), name, address, access code (masked, with reveal), optional
/// serial, or a URL for other cameras; Bambu printers found on the network prefill it; a Klipper or OctoPrint host's API (address, port, key), or a go2rtc restreamer's
/// (address, port, username, password), finds its cameras, of which the user checks one or several
/// (go2rtc's streams are saved as other cameras over RTSP); the printer's cameras (`PrinterCameraList`:
/// add, remove, reorder; the one selected has its URL and mounting — turned, mirrored — in the
/// fields below, an imported camera's filled in); the print's timelapse; "Test Connection" probes
/// the selected camera; Save checks every field and says what is wrong under the field itself.
@MainActor
final class PrinterDialog {
    let window: UnsafeMutablePointer<GtkWidget>
    let name = FormField(title: tr("Name"))
    let host = FormField(title: tr("IP address"), hint: "")
    /// The secret, titled as the choice says: a Bambu access code, an API key, go2rtc's API password.
    let accessCode = FormField(title: "", secret: true, hint: "")
    let apiPort = FormField(title: tr("Port"))
    let apiUser = FormField(title: tr("API username"))
    let serial = FormField(title: tr("Serial number (optional)"), hint: "")
    let url = FormField(title: tr("Camera URL"), hint: "")
    /// "Find Cameras" and the cameras it found on a Klipper, OctoPrint or go2rtc host.
    let cameraList = ImportedCameraList()
    let cameras: FormField
    /// The printer's cameras; the selected one's URL and mounting are in `url` and `mounting`.
    let cameraRows = PrinterCameraList()
    /// How the selected camera is mounted.
    let mounting = MountingField()
    /// Whether its prints get a timelapse; shown for printers with print status.
    let timelapse = TimelapseField()
    private let hostRow = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
    /// "On your network" (adding only), shown while a Bambu kind is chosen.
    private let discoveredGroup: UnsafeMutablePointer<GtkWidget>?
    /// Why the last "Find Cameras" failed, shown under the address until it is edited.
    private var findError: String?
    /// The "Type" drop-down: the titles of `PrinterChoice.all`.
    let kindDropDown: UnsafeMutablePointer<GtkWidget>
    private let kind: FormField
    private let testButton: UnsafeMutablePointer<GtkWidget>
    private let testResult: UnsafeMutablePointer<GtkWidget>
    /// The printers discovery hears ("On your network"); picking one prefills the form.
    let discovered = DiscoveredPrinterList()
    private var model: BambuModel?
    private let id: UUID
    /// The printer being edited.
    private let editing: Printer?
    /// The printer's cameras as listed, the selected one as it was when selected (see `editedCameras`).
    private var printerCameras: [PrinterCamera] = []
    private var selectedCamera: Int?
    private var attemptedSave = false
    /// Where saved access codes are kept, said under a Bambu printer's access code.
    private var secretsNote: String
    /// The access code field's title now, and what was typed under each other title: a Bambu access
    /// code never becomes the API key sent to a Klipper host.
    private var secretTitle: String?
    private var typedSecrets: [String: String] = [:]

    /// Probes a source and answers with a sentence for the user (on the main loop).
    var onTest: @MainActor (StreamSource, @escaping @MainActor (String) -> Void) -> Void = { _, _ in }
    /// The user saved valid printers (several when several go2rtc streams were chosen); the dialog closes itself.
    var onSave: @MainActor ([Printer]) -> Void = { _ in }

    init(parent: UnsafeMutablePointer<GtkWidget>?, editing printer: Printer?, secretsNote: String) {
        id = printer?.id ?? UUID()
        editing = printer
        self.secretsNote = secretsNote
        kindDropDown = makeDropDown(PrinterChoice.all.map(\.title))
        kind = FormField(title: tr("Type"), control: kindDropDown)
        cameras = FormField(title: tr("Cameras"), control: cameraList.widget)
        window = adw_window_new()
        gtk_window_set_title(gcast(window), printer == nil ? tr("Add Printer") : tr("Edit Printer"))
        gtk_window_set_modal(gcast(window), true.gboolean)
        if let parent { gtk_window_set_transient_for(gcast(window), gcast(parent)) }
        gtk_window_set_default_size(gcast(window), 480, 720)

        let header = adw_header_bar_new()!
        adw_header_bar_set_show_end_title_buttons(gcast(header), false.gboolean)
        let cancel = gtk_button_new_with_label(tr("Cancel"))!
        let save = gtk_button_new_with_label(printer == nil ? tr("Add") : tr("Save"))!
        gtk_widget_add_css_class(save, "suggested-action")
        adw_header_bar_pack_start(gcast(header), cancel)
        adw_header_bar_pack_end(gcast(header), save)

        testButton = gtk_button_new_with_label(tr("Test Connection"))
        testResult = makeLabel(wraps: true, leading: true)
        gtk_label_set_selectable(gcast(testResult), true.gboolean)

        let form = gtk_box_new(GTK_ORIENTATION_VERTICAL, 14)!
        gtk_widget_add_css_class(form, "printer-form")
        gtk_box_append(gcast(form), kind.widget)
        if printer == nil {
            let group = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
            gtk_box_append(gcast(group), makeLabel(tr("On your network"), classes: ["heading"], leading: true))
            gtk_box_append(gcast(group), discovered.widget)
            gtk_box_append(gcast(form), group)
            discoveredGroup = group
        } else {
            discoveredGroup = nil
        }
        gtk_widget_set_hexpand(host.widget, true.gboolean)
        gtk_editable_set_width_chars(gcast(apiPort.entry), 6)
        gtk_editable_set_max_width_chars(gcast(apiPort.entry), 6)
        gtk_box_append(gcast(hostRow), host.widget)
        gtk_box_append(gcast(hostRow), apiPort.widget)
        for field in [name.widget, hostRow, apiUser.widget, accessCode.widget, serial.widget,
                      cameras.widget, cameraRows.field.widget, url.widget, mounting.field.widget, timelapse.field.widget] {
            gtk_box_append(gcast(form), field)
        }
        let testRow = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)!
        gtk_widget_set_halign(testButton, GTK_ALIGN_START)
        gtk_box_append(gcast(testRow), testButton)
        gtk_box_append(gcast(testRow), testResult)
        gtk_box_append(gcast(form), testRow)

        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(gcast(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(gcast(scroller), form)
        gtk_widget_set_vexpand(scroller, true.gboolean)
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(gcast(content), header)
        gtk_box_append(gcast(content), scroller)
        adw_window_set_content(gcast(window), content)

        if let printer { fill(with: printer) }
        choiceChanged()
        discovered.onPick = { [weak self] found in self?.prefill(from: found) }

        connectSignal(cancel, "clicked") { [window] in gtk_window_destroy(gcast(window)) }
        connectSignal(save, "clicked") { [weak self] in self?.save() }
        connectSignal(testButton, "clicked") { [weak self] in self?.testConnection() }
        connectSignal(cameraList.findButton, "clicked") { [weak self] in self?.findCameras() }
        cameraList.onToggle = { [weak self] in self?.camerasToggled() }
        cameraRows.onRequest = { [weak self] request in self?.camerasEdited(request) }
        connectSignal(kindDropDown, "notify::selected") { [weak self] (_: UnsafeMutableRawPointer?) in
            self?.choiceChanged()
        }
        for field in [name, serial, url] {
            field.onChange { [weak self] in self?.revalidate() }
        }
        for field in [host, apiPort, accessCode, apiUser] {
            field.onChange { [weak self] in self?.apiChanged() }
        }
        keepAlive(self, untilDestroyed: window)
    }

    func present() {
        gtk_window_present(gcast(window))
    }

    /// Says where the access code will be kept, once the keyring has answered.
    func setSecretsNote(_ note: String) {
        secretsNote = note
        showAccessCodeHint()
    }

    /// The printers discovery currently hears.
    func showDiscovered(_ printers: [DiscoveredPrinter]) {
        discovered.show(printers)
    }

    /// Fills the form from a printer found on the network (the user still types the access code).
    func prefill(from found: DiscoveredPrinter) {
        model = found.model
        if let model { selectKind(Printer.Kind.bambu(model)) }
        if name.text.isEmpty { name.text = found.name ?? found.modelName ?? found.serial }
        host.text = found.address
        serial.text = found.serial
        gtk_widget_grab_focus(accessCode.entry)
    }

    /// The draft the fields describe now: for Klipper, OctoPrint and go2rtc the API's fields; the
    /// printer's cameras as listed (go2rtc: the checked streams).
    var draft: PrinterDraft {
        let choice = choice
        return PrinterDraft(id: id, kind: choice.kind(model: model), isGo2RTC: choice.isGo2RTC, name: name.text, host: host.text,
                            apiPort: apiPortText, user: choice.shows(.apiUser) ? apiUser.text : "",
                            accessCode: accessCode.text, serial: serial.text,
                            cameras: choice.isGo2RTC ? cameraList.chosen.map(PrinterCamera.init) : editedCameras,
                            notifies: editing?.notifies ?? true, timelapse: timelapse.timelapse)
    }

    /// The printer's cameras, the selected one with the URL and mounting its fields show now.
    var editedCameras: [PrinterCamera] {
        var edited = printerCameras
        guard let index = selectedCamera, edited.indices.contains(index) else { return edited }
        if edited[index].url != nil { edited[index].url = url.text }
        edited[index].rotation = mounting.rotation
        edited[index].flipHorizontal = mounting.flipHorizontal
        edited[index].flipVertical = mounting.flipVertical
        return edited
    }

    var testResultText: String { String(cString: gtk_label_get_text(gcast(testResult))) }

    /// The printers the "On your network" list shows.
    var discoveredPrinters: [DiscoveredPrinter] { discovered.printers }

    /// Validates; saves and closes when every field is right, else shows each field's message.
    func save() {
        attemptedSave = true
        switch draft.printers() {
        case .success(let printers):
            onSave(printers)
            gtk_window_destroy(gcast(window))
        case .failure(let problems):
            show(problems)
        }
    }

    /// The "Type" drop-down's choice.
    var choice: PrinterChoice {
        PrinterChoice.all[min(Int(gtk_drop_down_get_selected(gcast(kindDropDown))), PrinterChoice.all.count - 1)]
    }

    /// Chooses `choice` in the "Type" drop-down.
    func select(_ choice: PrinterChoice) {
        gtk_drop_down_set_selected(gcast(kindDropDown), guint(choice.index))
    }

    /// Chooses the entry that makes `kind`.
    func selectKind(_ kind: Printer.Kind) {
        select(PrinterChoice.making(kind))
    }

    /// The form's field for `field` of the table.
    func formField(_ field: PrinterChoice.Field) -> FormField {
        switch field {
        case .name: return name
        case .host: return host
        case .apiPort: return apiPort
        case .apiUser: return apiUser
        case .accessCode: return accessCode
        case .serial: return serial
        case .url: return url
        case .cameras: return cameras
        case .timelapse: return timelapse.field
        }
    }

    // MARK: Private

    private func fill(with printer: Printer) {
        model = printer.kind.model
        selectKind(printer.kind)
        name.text = printer.name
        host.text = printer.host
        if choice.shows(.apiPort) { apiPort.text = printer.apiPort.map(String.init) ?? "" }
        accessCode.text = printer.accessCode
        serial.text = printer.serial ?? ""
        printerCameras = printer.cameras
        showCamera(at: 0)
        timelapse.timelapse = printer.timelapse
    }

    /// The API port field's text, or for a Bambu printer the MQTT port it was saved with (no field
    /// shows it).
    private var apiPortText: String {
        if choice.shows(.apiPort) { return apiPort.text }
        guard choice.kind.isBambu, let editing, editing.kind.isBambu else { return "" }
        return editing.apiPort.map(String.init) ?? ""
    }

    /// Whether the camera URL field is part of the form: while a camera with a URL is selected
    /// (not a Bambu printer's own camera), never for go2rtc.
    private var showsURL: Bool {
        !choice.isGo2RTC && selectedCamera.map { printerCameras.indices.contains($0) && printerCameras[$0].url != nil } ?? false
    }

    /// Shows the camera at `index` in the URL and mounting fields, the one shown before kept as edited.
    private func selectCamera(_ index: Int?) {
        printerCameras = editedCameras
        showCamera(at: index)
    }

    /// Shows the camera at `index` in the URL and mounting fields (what they showed is not kept).
    private func showCamera(at index: Int?) {
        selectedCamera = index.flatMap { printerCameras.indices.contains($0) ? $0 : nil }
        if let camera = selectedCamera.map({ printerCameras[$0] }) {
            url.text = camera.url ?? ""
            mounting.show(rotation: camera.rotation, flipHorizontal: camera.flipHorizontal, flipVertical: camera.flipVertical)
        }
        showCameras()
    }

    /// Lists the printer's cameras and shows the fields of the selected one.
    private func showCameras() {
        let choice = choice
        cameraRows.show(printerCameras, kind: choice.kind, selected: selectedCamera)
        cameraRows.field.setShown(!choice.isGo2RTC)
        url.setShown(showsURL)
        mounting.field.setShown(!choice.isGo2RTC && selectedCamera != nil)
    }

    /// Does what the camera list asked.
    private func camerasEdited(_ request: PrinterCameraList.Request) {
        printerCameras = editedCameras
        switch request {
        case .select(let index):
            selectCamera(index)
            return
        case .moveUp(let index) where index > 0:
            printerCameras.swapAt(index, index - 1)
            showCamera(at: index - 1)
        case .moveDown(let index) where index + 1 < printerCameras.count:
            printerCameras.swapAt(index, index + 1)
            showCamera(at: index + 1)
        case .remove(let index) where printerCameras.indices.contains(index):
            printerCameras.remove(at: index)
            showCamera(at: printerCameras.isEmpty ? nil : min(index, printerCameras.count - 1))
        case .add:
            printerCameras.append(PrinterCamera(url: ""))
            showCamera(at: printerCameras.count - 1)
        default:
            return
        }
        if case .add = request { gtk_widget_grab_focus(url.entry) }
        revalidate()
    }

    /// The cameras a kind starts with or keeps: a Bambu printer's own camera first, no such camera
    /// on another kind, and an empty one to fill in for a camera by URL.
    private func fitCamerasToChoice() {
        printerCameras = editedCameras
        let kind = choice.kind
        if kind.isBambu {
            if !printerCameras.contains(where: { $0.url == nil }) { printerCameras.insert(.bambuOwn(), at: 0) }
        } else {
            printerCameras.removeAll { $0.url?.isEmpty ?? true }
            if printerCameras.isEmpty && !kind.hasStatusAPI { printerCameras = [PrinterCamera(url: "")] }
        }
        showCamera(at: printerCameras.isEmpty ? nil : 0)
    }

    /// Shows the choice's fields, with its titles, examples and hints.
    private func choiceChanged() {
        let choice = choice
        keepSecret(under: choice.fields[.accessCode]?.title)
        for field in PrinterChoice.Field.allCases {
            let formField = formField(field), text = choice.fields[field]
            formField.setShown(text != nil)
            if let title = text?.title { formField.setTitle(title) }
            if let placeholder = text?.placeholder { formField.setPlaceholder(placeholder) }
            formField.setHint(text?.hint ?? "")
        }
        showAccessCodeHint()
        fitCamerasToChoice()
        gtk_widget_set_visible(hostRow, (choice.shows(.host) || choice.shows(.apiPort)).gboolean)
        if let discoveredGroup { gtk_widget_set_visible(discoveredGroup, choice.kind.isBambu.gboolean) }
        revalidate()
    }

    /// The choice's hint under the access code, a Bambu printer's followed by where its code is kept.
    private func showAccessCodeHint() {
        let choice = choice, hint = choice.fields[.accessCode]?.hint ?? ""
        accessCode.setHint(choice.kind.isBambu ? hint + " " + secretsNote : hint)
    }

    /// Keeps what was typed as the secret under its old title and brings back what was typed under
    /// `title` (a choice with no secret leaves the field as it is).
    private func keepSecret(under title: String?) {
        guard let title, title != secretTitle else { return }
        if let secretTitle {
            typedSecrets[secretTitle] = accessCode.text
            accessCode.text = typedSecrets[title] ?? ""
        }
        secretTitle = title
    }

    /// An edit of the API's address, port or key: a search for the old one's cameras is dropped
    /// and its error with it.
    private func apiChanged() {
        cameraList.cancel()
        findError = nil
        host.showError(nil)
        revalidate()
    }

    /// A found camera checked is one of the printer's cameras, unchecked it is not (go2rtc's
    /// streams are saved on their own, see `draft`).
    private func camerasToggled() {
        guard !choice.isGo2RTC else { return revalidate() }
        printerCameras = editedCameras
        let chosen = cameraList.chosen
        let unchecked = Set(cameraList.cameras.compactMap(\.url)).subtracting(chosen.compactMap(\.url))
        printerCameras.removeAll { camera in camera.url.map { unchecked.contains($0) || $0.isEmpty } ?? false }
        for found in chosen where !printerCameras.contains(where: { $0.url == found.url }) {
            printerCameras.append(PrinterCamera(found))
        }
        showCamera(at: printerCameras.isEmpty ? nil : 0)
        revalidate()
    }

    /// After a first Save attempt, messages follow the user's edits.
    private func revalidate() {
        guard attemptedSave else { return }
        if case .failure(let problems) = draft.validate() { show(problems) } else { show(nil) }
    }

    private func show(_ problems: PrinterDraft.Problems?) {
        name.showError(problems?[.name])
        host.showError(problems?[.host] ?? findError)
        apiPort.showError(problems?[.apiPort])
        accessCode.showError(problems?[.accessCode])
        apiUser.showError(problems?[.user])
        serial.showError(problems?[.serial])
        url.showError(problems?[.url])
        cameras.showError(problems?[.cameras])
        kind.showError(problems?[.kind])
    }

    /// Asks the Klipper, OctoPrint or go2rtc host for its cameras off the main loop and lists them:
    /// every playable one checked for a new printer, the one the printer shows when editing.
    func findCameras() {
        let target: CameraSearch.Target
        let asked: Result<CameraSearch.Target, PrinterDraft.Problems> = choice.isGo2RTC ? draft.go2rtcImport().map { .go2rtc($0) }
                                                                                        : draft.statusEndpoint().map { .statusAPI($0) }
        switch asked {
        case .failure(let problems):
            for (field, problem) in [(host, PrinterDraft.Field.host), (apiPort, .apiPort), (accessCode, .accessCode),
                                     (apiUser, .user)] {
                field.showError(problems[problem])
            }
            return
        case .success(let found):
            target = found
        }
        findError = nil
        host.showError(nil)
        // A new printer takes every playable camera; an edited one shows those it has checked.
        let kept = editing.map { Set($0.cameras.compactMap(\.url)) }
        cameraList.find(target, checked: { found in kept.map { found.url.map($0.contains) ?? false } ?? true }) { [weak self] message in
            self?.findError = message
            self?.host.showError(message)
        }
    }

    /// Probes the camera the fields describe and shows the answer under the button.
    func testConnection() {
        let source: StreamSource
        switch draft.validate() {
        case .failure(let problems):
            attemptedSave = true
            show(problems)
            gtk_label_set_text(gcast(testResult), tr("Fix the fields marked above first."))
            return
        case .success(let printer):
            let selected = selectedCamera.map { editedCameras[$0].id }
            do { source = try printer.source(of: printer.cameras.first { $0.id == selected } ?? printer.cameras[0]) } catch {
                gtk_label_set_text(gcast(testResult), "\(error)")
                return
            }
        }
        gtk_widget_set_sensitive(testButton, false.gboolean)
        gtk_label_set_text(gcast(testResult), tr("Connecting…"))
        onTest(source) { [weak self] answer in
            guard let self else { return }
            gtk_widget_set_sensitive(testButton, true.gboolean)
            gtk_label_set_text(gcast(testResult), answer)
        }
    }
}
