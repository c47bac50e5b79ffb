import Foundation
import GtkKit
import PrinterKit
import StatusKit
import StreamKit

/// Desktop notifications of prints. It follows every saved printer (the library's printers stream)
/// and its status in the hub and, for a printer whose switch is on (`Printer.notifies`), notifies
/// when a print finishes, fails, is cancelled or pauses (unless this Layerwatch sent the pause or
/// stop: `SentCommands`) and when a Bambu printer raises an HMS alert it did not
/// show before, each while its event is on in Preferences (and a lost camera, `CameraLossWatch`):
/// the printer's name in the title, the job (and the printer's error and the HMS alerts in words,
/// with a "Learn More" button opening Bambu's page) in the body, a fresh picture of the camera
/// (`FreshPicture`) as the icon, and a click that brings up the printer's tab (`app.show-printer`). Each
/// printer has one notification id, so a newer event replaces an older one. Each printer's
/// `NotificationGate` decides when: a state is told once it has held for a few seconds, alerts are
/// counted in one notification, and a few notifications a minute at most leave, whatever the
/// printer reports. What each printer last showed is kept in a `NotificationLedger`
/// (even while its switch is off), so neither a reconnect nor a restart notifies the same event
/// again, and a printer seen for the first time notifies nothing of the state it is already in.
@MainActor
final class PrintNotifier {
    /// The application action a notification's click activates, with the printer's id (a string).
    static let showPrinterAction = "show-printer"
    /// The application action of a notification's "Learn More", with the page of Bambu's it opens.
    static let openLinkAction = "open-link"

    private let application: OpaquePointer
    private let hub: PrinterStatusHub
    private let ledger: NotificationLedger
    private unowned let library: PrinterLibrary
    private var printersObservation: PrinterLibrary.Observation?
    private let picture: @MainActor (UUID, @escaping @MainActor (VideoFrame?) -> Void) -> Void
    private var observations: [UUID: PrinterStatusHub.Observation] = [:]
    /// Printers with a notification on the desktop (or sent, at least): only theirs are withdrawn,
    /// so an app that never notified never talks to the notification server.
    private var shown: Set<UUID> = []
    /// Encodes pictures off the main loop.
    private let pictures = DispatchQueue(label: "layerwatch.notification-picture")
    /// Each printer's notifications waiting for their picture, oldest first: one is sent at a
    /// time, so they leave in the order of their events (a later one replaces an earlier).
    private var outbox: [UUID: [DesktopNotification]] = [:]
    /// Each printer's newest timelapse and the job it is of: the end of that job's print offers it,
    /// whichever comes first, the video or the report of the end.
    private var timelapses: [UUID: (video: URL, job: String)] = [:]
    private var gates: [UUID: NotificationGate] = [:]
    /// Ticks each second while a gate waits for a state to settle or for its turn.
    private var ticker: RepeatingTimer?
    /// Whether the notification server reads bodies as markup (asked once, off the main loop;
    /// escaped meanwhile, so a name never reaches a markup reader raw).
    private var bodyIsMarkup = true

    /// - Parameters:
    ///   - application: the GApplication that sends the notifications.
    ///   - library: the saved printers, as they are now (their names, their switches).
    ///   - picture: hands its second argument a fresh picture of the printer's camera, or nil
    ///     (`FreshPicture`).
    init(application: OpaquePointer, hub: PrinterStatusHub, ledger: NotificationLedger,
         library: PrinterLibrary, picture: @escaping @MainActor (UUID, @escaping @MainActor (VideoFrame?) -> Void) -> Void) {
        self.application = application
        self.hub = hub
        self.ledger = ledger
        self.library = library
        self.picture = picture
        printersObservation = library.observePrinters { [weak self] printers in self?.follow(printers) }
        DispatchQueue.global().async {
            let markup = DesktopNotification.bodyIsMarkup()
            MainLoopExecutor.main.runOnMainActor { [weak self] in self?.bodyIsMarkup = markup }
        }
    }

    /// Follows the status of `printers` (the saved ones) and forgets every other printer, taking
    /// a removed printer's notification off the desktop.
    private func follow(_ printers: [Printer]) {
        let ids = Set(printers.map(\.id))
        for id in shown.subtracting(ids) {
            DesktopNotification.withdraw(from: application, id: Self.notificationID(of: id))
        }
        shown.formIntersection(ids)
        observations = observations.filter { ids.contains($0.key) }
        gates = gates.filter { ids.contains($0.key) }
        outbox = outbox.filter { ids.contains($0.key) }
        ledger.keep(only: ids)
        for id in ids where observations[id] == nil {
            observations[id] = hub.observe(printerID: id) { [weak self] update in self?.received(update, for: id) }
        }
    }

    private func printer(_ id: UUID) -> Printer? {
        library.printer(id: id)
    }

    /// Whether nothing is under way: no notification waits for its picture and no event for its
    /// state to settle (what the ledger keeps survives a restart; these would not).
    var isIdle: Bool { outbox.isEmpty && ticker == nil }
    /// Called when it became idle (`isIdle`) after something was under way.
    var onIdle: @MainActor () -> Void = {}

    /// Waits until what the ledger learnt is on disk.
    func flush() {
        ledger.flush()
    }

    private func received(_ update: StatusMonitor.Update?, for id: UUID) {
        guard let update else {
            // The printer's status is gone (edited, removed, the window closed): nothing of it is
            // waiting any more; the ledger keeps what was told.
            gates[id] = nil
            updateTicker()
            return
        }
        guard update.connection == .live, let status = update.status else { return }
        var gate = gates[id] ?? NotificationGate(mark: ledger[id])
        let tell = gate.observe(status, at: Date())
        settle(gate, tell, for: id)
    }

    /// Keeps `gate`'s state (and its mark in the ledger), sends what it let through, and ticks
    /// while any gate waits.
    private func settle(_ gate: NotificationGate, _ tell: NotificationGate.Tell?, for id: UUID) {
        gates[id] = gate
        ledger[id] = gate.mark
        if let tell, let printer = printer(id), printer.notifies { notify(tell, printer: printer) }
        updateTicker()
    }

    private func updateTicker() {
        let waiting = gates.values.contains { $0.nextDeadline != nil }
        if waiting && ticker == nil {
            ticker = RepeatingTimer(seconds: 1) { [weak self] in self?.tick() }
        } else if !waiting, ticker != nil {
            ticker = nil
            if isIdle { onIdle() }
        }
    }

    private func tick() {
        let now = Date()
        for (id, gate) in gates {
            guard let deadline = gate.nextDeadline, deadline <= now else { continue }
            var ticked = gate
            let tell = ticked.tick(at: now)
            settle(ticked, tell, for: id)
        }
    }

    /// The printer's one notification: each new one replaces the one before.
    private static func notificationID(of printerID: UUID) -> String {
        "printer-\(printerID.uuidString)"
    }

    /// How many alerts a notification words; the rest are counted.
    private static let listedAlerts = AlertList.listedLimit

    /// One notification for what the gate let through (a pause can come with alerts): the job,
    /// the print error and the new HMS alerts in words, and a "Learn More" button opening the
    /// page of the first of them.
    private func notify(_ tell: NotificationGate.Tell, printer: Printer) {
        var tell = tell
        if let event = tell.event, hub.sentCommands.accountFor(event, of: printer.id) {
            GLibLog.debug("not notified (sent from here): \(printer.name) \(event)")
            guard !tell.alerts.isEmpty else { return }
            tell.event = nil
        }
        let preferences = library.config.preferences
        guard Self.isNotified(tell, by: preferences) else {
            GLibLog.debug("not notified (switched off in Preferences): \(printer.name) \(String(describing: tell.event))")
            return
        }
        let status = tell.status
        let title: String
        var priority = DesktopNotification.Priority.high
        var error: String?
        var printError: BambuAlert?
        switch tell.event {
        case .finished?:
            title = String(format: tr("%@: print finished"), printer.name)
            priority = .normal
        case .failed?:
            title = String(format: tr("%@: print failed"), printer.name)
            (error, printError) = (status.errorText, status.printError)
            if preferences.soundOnFailure { priority = .urgent }
        case .cancelled?:
            title = String(format: tr("%@: print cancelled"), printer.name)
            priority = .normal
        case .paused?:
            title = String(format: tr("%@: print paused"), printer.name)
            (error, printError) = (status.errorText, status.printError)
        case .alerts?, nil:
            title = String(format: tr("%@: printer alert"), printer.name)
        }
        let alerts = tell.alerts.prefix(Self.listedAlerts).compactMap(BambuAlert.init(hmsCode:))
        let more = tell.alertCount - alerts.count
        let hms = alerts.map(\.summary) + (more > 0 ? [String(format: trPlural("and %ld more alert", "and %ld more alerts", more), more)] : [])
        let link = (printError ?? alerts.first)?.url
        let timelapse = [.finished, .failed, .cancelled].contains(tell.event) ? timelapses[printer.id].flatMap { $0.job == status.job ? $0.video : nil } : nil
        send(notification(title: title, body: [status.job, error] + hms, priority: priority, timelapse: timelapse, link: link, of: printer),
             for: printer)
    }

    /// Whether the Preferences let `tell` through: its event's switch, or, for what comes with new
    /// HMS alerts, the alerts' switch.
    static func isNotified(_ tell: NotificationGate.Tell, by preferences: Preferences) -> Bool {
        let event: Preferences.Event? = switch tell.event {
        case .finished?: .finished
        case .failed?: .failed
        case .cancelled?: .cancelled
        case .paused?: .paused
        case .alerts?, nil: nil
        }
        let alerts = tell.alertCount > 0 || event == nil
        return event.map(preferences.notifiedEvents.contains) ?? false || (alerts && preferences.notifiedEvents.contains(.alert))
    }

    /// The printer's camera has been lost for `minutes` (`CameraLossWatch`, which obeys Camera
    /// Lost in Preferences): told as the printer's notification while its notifications are on.
    func notifyCameraLost(of printerID: UUID, minutes: Int) {
        guard let printer = printer(printerID), printer.notifies else { return }
        let title = String(format: trPlural("The camera of “%@” has been lost for %ld minute", "The camera of “%@” has been lost for %ld minutes",
                                            minutes), printer.name, minutes)
        send(notification(title: title, body: [tr("Layerwatch keeps trying to reconnect.")], priority: .high, timelapse: nil, link: nil, of: printer),
             for: printer)
    }

    /// The print's notification again, now offering its timelapse (`video`): it replaces the one
    /// its end raised (the printer's one notification id), so the finish notification offers to
    /// open it. Only for a printer whose notifications are on, and while its event's are; a print
    /// the printer reports cancelled (or the ledger settled as cancelled) is offered as cancelled.
    func offerTimelapse(_ video: URL, job: String, failed: Bool, of printerID: UUID) {
        timelapses[printerID] = (video, job)
        let ends = [ledger[printerID].map { ($0.state, $0.job) }, hub.latest(printerID)?.status.map { ($0.state, $0.job) }]
        let cancelled = ends.contains { $0?.0 == .cancelled && $0?.1 == job }
        let event: Preferences.Event = cancelled ? .cancelled : failed ? .failed : .finished
        guard let printer = printer(printerID), printer.notifies, library.config.preferences.notifiedEvents.contains(event) else { return }
        let format = switch event {
        case .cancelled: tr("%@: print cancelled")
        case .failed: tr("%@: print failed")
        default: tr("%@: print finished")
        }
        let title = String(format: format, printer.name)
        send(notification(title: title, body: [job], priority: .normal, timelapse: video, link: nil, of: printer), for: printer)
    }

    /// A notification of `printer`'s: `body`'s lines that are there, with `timelapse` a line
    /// naming it and a button opening it, with `link` a "Learn More" button opening that page; a
    /// click brings up the printer's tab.
    private func notification(title: String, body: [String?], priority: DesktopNotification.Priority, timelapse: URL?,
                              link: String?, of printer: Printer) -> DesktopNotification {
        let lines = body + [timelapse.map { String(format: tr("Timelapse: %@"), $0.lastPathComponent) }]
        let text = lines.compactMap { $0 }.joined(separator: "\n")
        return DesktopNotification(title: title, body: text.isEmpty ? nil : bodyIsMarkup ? markupEscaped(text) : text, priority: priority,
                                   defaultAction: ("app." + Self.showPrinterAction, printer.id.uuidString),
                                   buttons: (timelapse.map { [(tr("Open Timelapse"), Feature.openFile.actionName, $0.path)] } ?? [])
                                       + (link.map { [(tr("Learn More"), "app." + Self.openLinkAction, $0)] } ?? []))
    }

    /// Sends `text` as the printer's one notification, with a fresh picture of its camera as its
    /// icon, after those of the printer's still waiting for theirs.
    private func send(_ text: DesktopNotification, for printer: Printer) {
        outbox[printer.id, default: []].append(text)
        if outbox[printer.id]?.count == 1 { sendFirst(of: printer.id) }
    }

    private func sendFirst(of printerID: UUID) {
        guard let text = outbox[printerID]?.first else { return }
        let id = Self.notificationID(of: printerID)
        let pictures = pictures
        picture(printerID) { frame in
            pictures.async {
                let png = frame.flatMap(NotificationPicture.png)
                MainLoopExecutor.main.runOnMainActor { [weak self] in
                    guard let self, outbox[printerID] != nil else { return }  // the printer was removed meanwhile
                    var notification = text
                    // The camera's picture, or the app's icon when the camera gave none in time.
                    notification.icon = png.map(DesktopNotification.bytesIcon) ?? DesktopNotification.themedIcon(LayerwatchApplication.applicationID)
                    notification.send(from: application, id: id)
                    shown.insert(printerID)
                    GLibLog.debug("notification \(id): \(text.title)\(png == nil ? " (no picture)" : "")")
                    outbox[printerID]?.removeFirst()
                    if outbox[printerID]?.isEmpty == true { outbox[printerID] = nil }
                    sendFirst(of: printerID)
                    if isIdle { onIdle() }
                }
            }
        }
    }
}
