import CGtk
import Foundation
import GtkKit
import PrinterKit
import StatusKit
import StreamKit

/// The Add/Edit Printer dialog, a GNOME form: a header bar with Cancel and the suggested Add/Save
/// (the default action, sensitive only while the form is valid), then groups of rows — the type of
/// printer or camera (a `PrinterChoice`, which says the fields shown and what they say), name,
/// address, access code (masked, with reveal), optional serial, the variant the choice offers (a
/// Creality printer's model: `PrinterDialog+Variant`), or a
/// URL for other cameras; Bambu printers found on the network prefill it; a Klipper or OctoPrint
/// host's API (address, port, key), or a go2rtc restreamer's (address, port, username, password),
/// finds its cameras, of which the user checks one or several (go2rtc's streams are saved as other
/// cameras over RTSP); the printer's cameras (`PrinterCameraList`: add, remove, reorder; the one
/// selected has its URL and mounting in the rows below, an imported camera's filled in); the
/// print's timelapse; "Test Connection" tries the printer as it would be saved — its status and every
/// camera, a row each (`PrinterDialog+ConnectionTest`); editing, Remove Printer… at the end asks
/// before removing it. Each field says what is wrong under itself
/// (`PrinterDialog+Problems`), and the name warns when another printer has it; Escape and Ctrl+W
/// close it; it opens on the first empty field.
@MainActor
final class PrinterDialog {
    let window: UnsafeMutablePointer<GtkWidget>
    let name = FormField(title: tr("Name"))
    let host = FormField(title: tr("IP address or host name"), hint: "")
    /// The Model row: the variant of the kind the choice offers (a Creality printer's family, which
    /// its camera follows).
    let variantRow = FormField(title: tr("Model"), choices: [], hint: "")
    /// The secret, titled as the choice says: a Bambu access code, an API key, go2rtc's API password.
    let accessCode = FormField(title: "", secret: true, hint: "")
    let apiPort = FormField(title: tr("Port"))
    let apiUser = FormField(title: tr("API username"))
    let serial = FormField(title: tr("Serial number (optional)"), hint: "")
    let url = FormField(title: tr("Camera URL"), hint: "")
    /// Under the URL while it looks like a WebRTC (WHEP) address without `webrtc:`: puts it there.
    let useWebRTC: UnsafeMutablePointer<GtkWidget>
    /// "Find Cameras" and the cameras it found on a Klipper, OctoPrint or go2rtc host.
    let cameraList = ImportedCameraList()
    let cameras: FormField
    /// The printer's cameras; the selected one's URL and mounting are in `url` and `mounting`.
    let cameraRows = PrinterCameraList()
    /// How the selected camera is mounted.
    let mounting = MountingField()
    /// Whether its prints get a timelapse; shown for printers with print status.
    let timelapse = TimelapseField()
    /// The "Type" combo row: the titles of `PrinterChoice.all`.
    let kind = FormField(title: tr("Type"), choices: PrinterChoice.all.map(\.title))
    /// Add or Save: the window's default widget.
    let saveButton: UnsafeMutablePointer<GtkWidget>
    /// "On your network" (adding only), shown while a kind that discovery finds is chosen.
    private let discoveredGroup: UnsafeMutablePointer<GtkWidget>?
    /// "Connection test": the Test Connection button and a row per check.
    let connectionTest = ConnectionTestRows()
    /// The test running or shown, whose answers count (`PrinterDialog+ConnectionTest`).
    var currentTest: ConnectionTestRun?
    /// The printers discovery hears ("On your network"); picking one prefills the form.
    let discovered = DiscoveredPrinterList()
    /// Test Connection's question to a Creality printer's status websocket, while it runs.
    let crealityCheck = StatusQuestion<CrealityIdentity>()
    /// Test Connection's status connection to any other printer, while it runs.
    let statusCheck = StatusQuestion<PrinterStatus?>()
    /// The variant of a discovered or edited printer (a Bambu model), kept for a choice whose
    /// Model row does not choose one.
    private var keptVariant: String?
    private let id: UUID
    /// The printer being edited.
    let editing: Printer?
    /// The other saved printers' names: the name field warns when its name is one of them.
    let otherNames: Set<String>
    /// The printer's cameras as listed, the selected one as it was when selected (see `editedCameras`).
    var printerCameras: [PrinterCamera] = []
    var selectedCamera: Int?
    /// After a Save or a test of an invalid form every field says what is wrong with it; before,
    /// only the fields in `leftEdited`.
    var attemptedSave = false
    /// The fields the user edited.
    var edited: Set<PrinterDraft.Field> = []
    /// The fields the user edited and then left, or that Enter showed to keep the form from being
    /// saved: their messages show from then on.
    var leftEdited: Set<PrinterDraft.Field> = []
    /// What the last "Find Cameras" or "Test Connection" found wrong, by field, until the field
    /// changes or a check passes.
    var checkProblems: [PrinterDraft.Field: String] = [:]
    /// The code, key or camera login a check saw rejected, by field: the form is not saved until
    /// that field changes (another check does not clear it).
    var rejections: [PrinterDraft.Field: String] = [:]
    /// Where this printer's secret is, or where one typed now would go, said under the access code
    /// or API key of a printer that saves it (Bambu, Klipper, OctoPrint).
    private(set) var secretsPlace: SecretsPlace
    /// Whether a keyring answers that could take a secret kept in the file (`moveSecrets` shows).
    private var keyringCanTake = false
    /// Set once the window is destroyed: where the secret is, learnt later, changes nothing.
    private var destroyed = false
    /// "Move to Keyring" under the access code or API key while `printers.json` holds it and a
    /// keyring answers.
    let moveSecrets: UnsafeMutablePointer<GtkWidget>
    /// The access code field's title now, and what was typed under each other title: a Bambu access
    /// code never becomes the API key sent to a Klipper host.
    private var secretTitle: String?
    private var typedSecrets: [String: String] = [:]
    /// The usual port the port field was given for the choice shown (`showUsualPort`).
    private var usualPort: String?

    /// Probes a source and answers on the main loop with what the probe found (nil: the camera is
    /// streaming in its tab, whose session answered).
    var onTest: @MainActor (StreamSource, @escaping @MainActor (StreamProbe.Report?) -> Void) -> Void = { _, _ in }
    /// The user saved valid printers (several when several go2rtc streams were chosen); the dialog closes itself.
    var onSave: @MainActor ([Printer]) -> Void = { _ in }
    /// The user asked to move the printer's secret from `printers.json` into the keyring.
    var onMoveSecrets: @MainActor () -> Void = {}
    /// Editing, the user chose Remove Printer…: the owner asks, and closes the dialog if removed.
    var onRemove: @MainActor () -> Void = {}
    /// Remove Printer…, at the end of the form while editing.
    let removeButton: UnsafeMutablePointer<GtkWidget>?

    init(parent: UnsafeMutablePointer<GtkWidget>?, editing printer: Printer?, secretsPlace: SecretsPlace = .keyring,
         otherNames: Set<String> = []) {
        id = printer?.id ?? UUID()
        editing = printer
        self.otherNames = otherNames
        self.secretsPlace = secretsPlace
        cameras = FormField(title: tr("Cameras"), control: cameraList.widget)
        useWebRTC = url.addFixButton(tr("Use WebRTC Address"))
        moveSecrets = accessCode.addFixButton(SecretsNews.moveButton)
        window = adw_window_new()
        gtk_window_set_title(gcast(window), printer == nil ? tr("Add Printer") : tr("Edit Printer"))
        gtk_window_set_modal(gcast(window), true.gboolean)
        if let parent { gtk_window_set_transient_for(gcast(window), gcast(parent)) }
        // A modal dialog outliving its window would keep every other window from input.
        gtk_window_set_destroy_with_parent(gcast(window), true.gboolean)
        gtk_window_set_default_size(gcast(window), 520, 720)

        let header = adw_header_bar_new()!
        adw_header_bar_set_show_start_title_buttons(gcast(header), false.gboolean)
        adw_header_bar_set_show_end_title_buttons(gcast(header), false.gboolean)
        let cancel = gtk_button_new_with_mnemonic(tr("_Cancel"))!
        saveButton = gtk_button_new_with_mnemonic(printer == nil ? tr("_Add") : tr("_Save"))!
        gtk_widget_add_css_class(saveButton, "suggested-action")
        adw_header_bar_pack_start(gcast(header), cancel)
        adw_header_bar_pack_end(gcast(header), saveButton)
        gtk_window_set_default_widget(gcast(window), saveButton)
        // The choice's whole title under "Type": the row is too narrow for it beside the title.
        adw_combo_row_set_use_subtitle(gcast(kind.entry), true.gboolean)
        adw_combo_row_set_use_subtitle(gcast(variantRow.entry), true.gboolean)

        if printer == nil {
            let group = adw_preferences_group_new()!
            adw_preferences_group_set_title(gcast(group), tr("On your network"))
            adw_preferences_group_add(gcast(group), discovered.widget)
            discoveredGroup = group
        } else {
            discoveredGroup = nil
        }
        let remove = printer == nil ? nil : gtk_button_new_with_label(tr("Remove Printer…"))
        removeButton = remove
        let removeGroup = remove.map { button in
            gtk_widget_add_css_class(button, "destructive-action")
            gtk_widget_set_halign(button, GTK_ALIGN_END)
            let group = adw_preferences_group_new()!
            adw_preferences_group_add(gcast(group), button)
            return group
        }
        let form = gtk_box_new(GTK_ORIENTATION_VERTICAL, 12)!
        gtk_widget_add_css_class(form, "printer-form")
        for group in [kind.widget, discoveredGroup, name.widget, host.widget, variantRow.widget, apiPort.widget, apiUser.widget,
                      accessCode.widget, serial.widget, cameras.widget, cameraRows.field.widget, url.widget,
                      mounting.field.widget, timelapse.field.widget, connectionTest.widget, removeGroup].compactMap({ $0 }) {
            gtk_box_append(gcast(form), group)
        }
        adw_window_set_content(gcast(window), Self.scrolling(form, under: header))

        if let printer { fill(with: printer) }
        choiceChanged()
        discovered.onPick = { [weak self] found in self?.prefill(from: found) }

        connectSignal(cancel, "clicked") { [window] in gtk_window_close(gcast(window)) }
        connectSignal(saveButton, "clicked") { [weak self] in self?.save() }
        connectSignal(connectionTest.button, "clicked") { [weak self] in self?.testConnection() }
        connectionTest.onActivate = { [weak self] index in self?.revealFailure(at: index) }
        if let removeButton { connectSignal(removeButton, "clicked") { [weak self] in self?.onRemove() } }
        connectSignal(useWebRTC, "clicked") { [weak self] in self?.useWebRTCAddress() }
        connectSignal(moveSecrets, "clicked") { [weak self] in self?.onMoveSecrets() }
        connectSignal(cameraList.findButton, "clicked") { [weak self] in self?.findCameras() }
        cameraList.onToggle = { [weak self] in self?.camerasToggled() }
        cameraRows.onRequest = { [weak self] request in self?.camerasEdited(request) }
        kind.onChange { [weak self] in self?.choiceChanged() }
        variantRow.onChange { [weak self] in self?.variantChanged() }
        connectSignal(window, "destroy") { [weak self, crealityCheck, statusCheck] in
            crealityCheck.cancel()
            statusCheck.cancel()
            self?.destroyed = true
        }
        watchEdits()
        answerEnter()
        closeOnEscape()
        keepAlive(self, untilDestroyed: window)
    }

    /// Shows the dialog with the keyboard on `field`, or on the first empty field.
    func present(focusing field: PrinterChoice.Field? = nil) {
        gtk_window_present(gcast(window))
        focus(field.map(formField) ?? firstEmptyField)
    }

    /// Says where the secret is or will be kept once the keyring has answered (or a move ended),
    /// and offers to move one `printers.json` holds while a keyring answers (`keyringCanTake`).
    func setSecretsPlace(_ place: SecretsPlace, keyringCanTake: Bool) {
        guard !destroyed else { return }
        secretsPlace = place
        self.keyringCanTake = keyringCanTake
        showAccessCodeHint()
    }

    /// The printers discovery currently hears.
    func showDiscovered(_ printers: [DiscoveredPrinter]) {
        discovered.show(printers)
    }

    /// Fills the form from a printer found on the network: its family's type (its kind through the
    /// registry), name, address and serial; the keyboard goes to the first field still empty (a
    /// Bambu printer's access code).
    func prefill(from found: DiscoveredPrinter) {
        keptVariant = found.kind?.variant
        if let kind = found.kind { selectKind(kind) }
        if name.text.isEmpty { name.text = found.name ?? found.modelName ?? found.identifier }
        host.text = found.address
        serial.text = found.identifier
        focus(firstEmptyField)
    }

    /// The draft the fields describe now: for Klipper, OctoPrint and go2rtc the API's fields; the
    /// printer's cameras as listed (go2rtc: the checked streams).
    var draft: PrinterDraft {
        let choice = choice
        return PrinterDraft(id: id, kind: choice.kind(variant: chosenVariant?.raw ?? keptVariant), isGo2RTC: choice.isGo2RTC, name: name.text, host: host.text,
                            apiPort: apiPortText, user: choice.shows(.apiUser) ? apiUser.text : "",
                            accessCode: accessCode.text, serial: serial.text,
                            cameras: choice.isGo2RTC ? cameraList.chosen.map(PrinterCamera.init) : editedCameras,
                            notifies: editing?.notifies ?? true, timelapse: timelapse.timelapse)
    }

    /// What Test Connection says: its rows' results a line each, or why it did not run.
    var testResultText: String { connectionTest.text }

    /// The printers the "On your network" list shows.
    var discoveredPrinters: [DiscoveredPrinter] { discovered.printers }

    /// Validates; saves and closes when every field is right, else shows each field's message.
    func save() {
        attemptedSave = true
        splitAddress()
        switch draft.printers() {
        case .success(let printers) where rejections.isEmpty:
            onSave(printers)
            gtk_window_destroy(gcast(window))
        default:
            showProblems()
        }
    }

    /// The "Type" choice.
    var choice: PrinterChoice {
        PrinterChoice.all[min(kind.selected, PrinterChoice.all.count - 1)]
    }

    /// Chooses `choice` as the "Type".
    func select(_ choice: PrinterChoice) {
        kind.selected = choice.index
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
        case .model: return variantRow
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

    /// The form under the header bar, scrolling, kept to a readable width on a wide window.
    private static func scrolling(_ form: UnsafeMutablePointer<GtkWidget>,
                                  under header: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget> {
        let clamp = adw_clamp_new()!
        adw_clamp_set_maximum_size(gcast(clamp), 560)
        gtk_widget_set_margin_top(clamp, 12)
        gtk_widget_set_margin_bottom(clamp, 24)
        gtk_widget_set_margin_start(clamp, 12)
        gtk_widget_set_margin_end(clamp, 12)
        adw_clamp_set_child(gcast(clamp), form)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(gcast(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(gcast(scroller), clamp)
        gtk_widget_set_vexpand(scroller, true.gboolean)
        let content = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(gcast(content), header)
        gtk_box_append(gcast(content), scroller)
        return content
    }

    private func fill(with printer: Printer) {
        keptVariant = printer.kind.variant
        selectKind(printer.kind)
        showVariants()
        if let variant = printer.kind.variant { chooseVariant(variant) }
        name.text = printer.name
        host.text = printer.host
        if choice.shows(.apiPort) { apiPort.text = printer.apiPort.map(String.init) ?? "" }
        accessCode.text = printer.accessCode
        serial.text = printer.serial ?? ""
        printerCameras = printer.cameras
        showCamera(at: 0)
        timelapse.timelapse = printer.timelapse
    }

    /// The API port field's text, or the port a printer of the chosen family was saved with when
    /// no field shows it (a Bambu printer's MQTT port, a Creality printer's websocket's).
    private var apiPortText: String {
        if choice.shows(.apiPort) { return apiPort.text }
        guard let editing, editing.kind.isOfFamily(of: choice.kind) else { return "" }
        return editing.apiPort.map(String.init) ?? ""
    }

    /// Shows the choice's fields, with its titles, examples and hints.
    private func choiceChanged() {
        let choice = choice
        keepSecret(under: choice.fields[.accessCode]?.title)
        usualPort = showUsualPort(replacing: usualPort)
        showVariants()
        for field in PrinterChoice.Field.allCases {
            let formField = formField(field), text = choice.fields[field]
            formField.setShown(text != nil)
            if let title = text?.title { formField.setTitle(title) }
            if let placeholder = text?.placeholder { formField.setPlaceholder(placeholder) }
            formField.setHint(text?.hint ?? "")
        }
        showAccessCodeHint()
        showVariantHint()
        fitCamerasToChoice()
        if let discoveredGroup { gtk_widget_set_visible(discoveredGroup, choice.kind.isDiscovered.gboolean) }
        checkProblems = [:]
        rejections = [:]
        revalidate()
    }

    /// The choice's hint under the access code or API key, followed by where it is kept when the
    /// printer saves it (not go2rtc's password, which is never saved), with "Move to Keyring" while
    /// `printers.json` holds it and a keyring could take it.
    private func showAccessCodeHint() {
        let choice = choice, hint = choice.fields[.accessCode]?.hint ?? ""
        let noun = choice.kind.secretNoun
        accessCode.setHint(noun.map { hint + " " + secretsPlace.sentence(for: $0) } ?? hint)
        gtk_widget_set_visible(moveSecrets, (noun != nil && secretsPlace.isInFile && keyringCanTake).gboolean)
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
}
