import CameraKit
import Foundation
import StatusKit
import StreamKit

/// Every feature of the main window and the application, each declared once (see `Feature`).
extension Feature {
    /// Add Printer, which the farm's empty page offers too.
    static let addPrinter = Feature(name: "add-printer", title: tr("Add Printer…"), accelerators: ["<Control>t"], shortcutGroup: .printers,
                                    placements: [.tabBar(icon: "list-add-symbolic"), .menu(section: 0)],
                                    handler: .command { $0.showDialog(editing: nil) })

    /// The demo printer, which the welcome page offers.
    static let showDemo = Feature(name: "show-demo", title: tr("Try the Demo Printer"), handler: .command { $0.showDemo() })

    /// Open: a file Layerwatch saved, in the desktop's application for it (a saved file's toast,
    /// and a finished print's notification, whose button says Open Timelapse). The target is its path.
    static let openFile = Feature(name: "open-file", scope: .application, title: tr("Open"),
                                  handler: .textCommand { context, path in context.openFile(URL(fileURLWithPath: path)) })

    /// Show in Files: a saved file selected in its folder, in the desktop's file manager (a saved
    /// file's toast). The target is its path.
    static let showInFiles = Feature(name: "show-in-files", scope: .application, title: tr("Show in Files"),
                                     handler: .textCommand { context, path in context.showInFiles(URL(fileURLWithPath: path)) })

    /// A file dropped on a view of a printer (`PrintFileDrop`), the target its path: every view of
    /// a printer has it, a mini window too, with no item in any menu.
    static let printDroppedFile = Feature(name: "print-dropped-file", scope: .printer, title: tr("Print File"),
                                          handler: .printerText { printer, path in printer.confirmPrint(URL(fileURLWithPath: path)) },
                                          applies: { $0.endpoint != nil })

    /// Ends everything; also a button of the notice that Layerwatch runs in the background.
    static let quit = Feature(name: "quit", scope: .application, title: tr("Quit"), accelerators: ["<Control>q"], shortcutGroup: .general,
                              placements: [.menu(section: 1)], handler: .command { $0.quit() })

    /// The farm view, which the page shown while every tab is closed offers too.
    static let farmView = Feature(name: "farm-view", title: tr("Farm View"), accelerators: ["<Control>g"], shortcutGroup: .printers,
                                  placements: [.headerBar(icon: "view-grid-symbolic")],
                                  handler: .toggle { context, shown in context.showFarm(shown) },
                                  state: { $0.isFarmShown })

    /// The History page of the journal's prints; again, back to what showed before.
    static let showHistory = Feature(name: "show-history", title: tr("History"), accelerators: ["<Control>h"], shortcutGroup: .printers,
                                     placements: [.headerBar(icon: "document-open-recent-symbolic")],
                                     handler: .toggle { context, shown in context.showHistory(shown) },
                                     state: { $0.isHistoryShown })

    static let all: [Feature] = [
        // A farm tile's first item: the printer's tab.
        Feature(name: "show-tab", title: tr("Open Tab"), placements: [.tileMenu],
                handler: .command { context in context.selectedPrinterID.map(context.showTab) },
                isEnabled: { $0.selectedPrinterID != nil }),
        // Camera: the tab's picture the keyboard or the menu is in (the farm's selected tile's).
        Feature(name: "snapshot", scope: .camera, title: tr("Save Snapshot"), accelerators: ["<Control>s"], shortcutGroup: .camera,
                placements: [.controlBar(icon: "camera-photo-symbolic"), .tileMenu],
                handler: .page { $0.saveSnapshot() },
                isEnabledOnPage: { $0.state == .live }),
        Feature(name: "record", scope: .camera, title: tr("Record"), accelerators: ["<Control><Shift>r"], shortcutGroup: .camera,
                placements: [.controlBar(icon: "media-record-symbolic"), .tileMenu],
                handler: .pageToggle { page, on in page.setRecording(on) },
                pageState: { $0.session?.recording != nil }),
        Feature(name: "show-stats", scope: .camera, title: tr("Show Stats"), accelerators: ["<Control>i"], shortcutGroup: .camera,
                placements: [.controlBar(icon: "preferences-system-details-symbolic")],
                handler: .pageToggle { page, shown in page.surface?.setStatsShown(shown) },
                pageState: { $0.surface?.stats.isShown == true }),
        Feature(name: "fullscreen", title: tr("Fullscreen"), accelerators: ["F11"], shortcutGroup: .camera,
                placements: [.controlBar(icon: "view-fullscreen-symbolic")],
                handler: .command { $0.toggleFullscreen() },
                isEnabled: { !$0.selectedPrinterHasNoCamera }),
        Feature(name: "leave-fullscreen", title: tr("Leave Fullscreen"), accelerators: ["Escape"], shortcutGroup: .camera,
                handler: .command { $0.setFullscreen(false) },
                isEnabled: { $0.isFullscreen }),
        Feature(name: "pop-out", scope: .printer, title: tr("Pop Out Mini Window"), accelerators: ["<Control><Shift>p"],
                shortcutGroup: .camera, placements: [.controlBar(icon: "view-dual-symbolic"), .tileMenu],
                handler: .printer { $0.togglePopOut() },
                applies: { $0.camera != nil }),
        // Zoom: the picture the keyboard is in (a tab's, a mini window's; the farm's tiles do not zoom).
        Feature(name: "zoom-in", scope: .camera, title: tr("Zoom In"), accelerators: ["plus", "equal", "KP_Add", "<Control>plus", "<Control>equal"],
                shortcutGroup: .camera, handler: .camera { $0.stepZoom(in: true) }),
        Feature(name: "zoom-out", scope: .camera, title: tr("Zoom Out"), accelerators: ["minus", "KP_Subtract", "<Control>minus"],
                shortcutGroup: .camera, handler: .camera { $0.stepZoom(in: false) }),
        Feature(name: "zoom-fit", scope: .camera, title: tr("Fit the Picture"), accelerators: ["0", "KP_0", "<Control>0"],
                shortcutGroup: .camera, handler: .camera { $0.setZoom(.fitted) }),
        // The camera switcher's keys and the farm tile's and mini window's menus: one of the printer's cameras.
        showCamera(1), showCamera(2), showCamera(3), showCamera(4), showCamera(5), showCamera(6), showCamera(7),
        showCamera(8), showCamera(9),
        // The picture the keyboard or the menu is in: a tab's, the farm's selected tile's, a mini window's.
        Feature(name: "reconnect", scope: .camera, title: tr("Reconnect"), accelerators: ["<Control>r"], shortcutGroup: .camera,
                placements: [.controlBar(icon: "view-refresh-symbolic"), .tileMenu],
                handler: .camera { $0.reconnect() }),
        // Print: the printer's print, where its state allows and its status is live.
        printCommand(.pause, name: "pause-print", icon: "media-playback-pause-symbolic", accelerator: "<Control><Alt>p"),
        printCommand(.resume, name: "resume-print", icon: "media-playback-start-symbolic", accelerator: "<Control><Alt>r"),
        printCommand(.stop, name: "stop-print", icon: "media-playback-stop-symbolic", accelerator: "<Control><Alt>period"),
        // Print File: the printer's (or the farm's selected printers'), chosen or dropped on its view.
        Feature(name: "print-file", scope: .printer, title: tr("Print File…"), placements: [.menu(section: 0), .tileMenu, .miniWindowMenu],
                handler: .printer { $0.choosePrintFile() },
                applies: { $0.endpoint != nil }, hiddenWhenDisabled: true),
        printDroppedFile,
        Feature(name: "print-speed", scope: .printer, title: tr("Print Speed"), placements: [.menu(section: 0), .tileMenu, .miniWindowMenu],
                handler: .choice(PrintSpeed.allCases.map { ($0.name, $0.title) }) { printer, name in
                    PrintSpeed(name: name).map { printer.send(.speed($0)) }
                },
                applies: { $0.printControl(.speed(.standard)) == .available },
                choiceState: { $0.speed?.name ?? "" },
                lockedReason: { $0.printControl(.speed(.standard)).lockedReason }, hiddenWhenDisabled: true),
        // Printers.
        addPrinter,
        showDemo,
        Feature(name: "edit-printer", scope: .printer, title: tr("Edit Printer…"), accelerators: ["<Control>e"], shortcutGroup: .printers,
                placements: [.menu(section: 0), .tileMenu],
                handler: .printer { $0.edit() },
                applies: { $0.isSaved }),
        Feature(name: "export-go2rtc", title: tr("Export for go2rtc…"), placements: [.menu(section: 0)],
                handler: .command { $0.chooseGo2RTCExport() },
                isEnabled: { $0.hasSavedPrinters }),
        Feature(name: "close-tab", title: tr("Close Tab"), accelerators: ["<Control>w"], shortcutGroup: .printers,
                handler: .command { $0.closeSelectedTab() },
                isEnabled: { $0.selectedPrinterID != nil }),
        // General.
        Feature(name: "preferences", scope: .application, title: tr("Preferences"), accelerators: ["<Control>comma"],
                shortcutGroup: .general, placements: [.menu(section: 1)], handler: .command { $0.showPreferences() }),
        Feature(name: "show-help-overlay", title: tr("Keyboard Shortcuts"), accelerators: ["<Control>question"],
                shortcutGroup: .general, placements: [.menu(section: 1)], handler: .providedByGTK),
        Feature(name: "about", scope: .application, title: tr("About Layerwatch"), placements: [.menu(section: 1)],
                handler: .command { $0.showAbout() }),
        quit,
        // What a notification's click and its Open Timelapse and Learn More buttons, and a saved
        // file's toast, activate, with their targets.
        Feature(name: PrintNotifier.showPrinterAction, scope: .application, title: tr("Open Tab"),
                handler: .textCommand { context, id in UUID(uuidString: id).map(context.showPrinter) }),
        openFile,
        showInFiles,
        Feature(name: PrintNotifier.openLinkAction, scope: .application, title: tr("Learn More"),
                handler: .textCommand { context, url in context.openLink(url) }),
        // The farm view (last: its shortcut changes what the window shows).
        farmView,
        // The History page (after the farm: its shortcut changes what the window shows too), and
        // the prints ended since a time (the banner of what happened while the user was away).
        showHistory,
        Feature(name: "show-history-since", title: tr("History"), handler: .timeCommand { context, since in context.showHistory(since: since) }),
        Feature(name: "search-history", title: tr("Search History"), accelerators: ["<Control>f"], shortcutGroup: .printers,
                handler: .command { $0.searchHistory() },
                isEnabled: { $0.isHistoryShown }),
        Feature(name: "attention-first", title: tr("Needs Attention First"), placements: [.menu(section: 0)],
                handler: .toggle { context, on in context.setAttentionFirst(on) },
                isEnabled: { $0.isFarmShown },
                state: { $0.attentionFirst }, hiddenWhenDisabled: true),
        // Select mode: a click on a tile chooses it (Ctrl+click does it anyway), for sending a file to several.
        Feature(name: "select-printers", title: tr("Select Printers"), placements: [.menu(section: 0)],
                handler: .toggle { context, on in context.setFarmSelecting(on) },
                isEnabled: { $0.isFarmShown },
                state: { $0.isFarmSelecting }, hiddenWhenDisabled: true),
    ]

    /// Shows camera `number` of the printer a menu or the keyboard acts on: in the farm tile's and
    /// the mini window's menu while that printer has it, named for it ("Show Chamber", as the tab's
    /// switcher names it), and on Alt+Shift+number (`CameraKeys`, since GTK's accelerators would
    /// need the symbol a layout puts on the shifted digit). The shortcuts window, for no printer in
    /// particular, lists the nine as one row (data/shortcuts.ui).
    static func showCamera(_ number: Int) -> Feature {
        Feature(name: "show-camera-\(number)", scope: .printer, title: String(format: tr("Show Camera %ld"), number),
                currentTitle: { printer in
                    let cameras = printer.cameras
                    // TRANSLATORS: a farm tile's or mini window's menu item; %@ is the camera's name ("Chamber", "Camera 2").
                    return cameras.indices.contains(number - 1) ? String(format: tr("Show %@"), cameras[number - 1].title)
                        : String(format: tr("Show Camera %ld"), number)
                },
                placements: [.tileMenu, .miniWindowMenu],
                handler: .printer { $0.showCamera(at: number - 1) },
                applies: { $0.cameras.count >= max(2, number) }, hiddenWhenDisabled: true)
    }

    /// A print command: a button in the control bar, an item in the farm tile's and the mini
    /// window's menus, a shortcut; shown only where it applies, greyed with the reason while locked.
    /// Its controls use the words of the printer it acts on, as its question and messages do; the
    /// shortcuts window, for no printer in particular, Bambu's.
    static func printCommand(_ command: PrintCommand, name: String, icon: String, accelerator: String) -> Feature {
        Feature(name: name, scope: .printer, title: PrintCommandText.title(command, for: nil),
                currentTitle: { PrintCommandText.title(command, for: $0.endpoint) },
                accelerators: [accelerator], shortcutGroup: .print,
                placements: [.controlBar(icon: icon), .tileMenu, .miniWindowMenu],
                handler: .printer { $0.send(command) },
                applies: { $0.printControl(command) == .available },
                lockedReason: { $0.printControl(command).lockedReason }, hiddenWhenDisabled: true)
    }

    /// The features with a control of one kind, each with what `control` reads off its placement
    /// (an icon, a menu section), in table order.
    static func placed<Value>(_ control: (Placement) -> Value?) -> [(feature: Feature, value: Value)] {
        all.flatMap { feature in feature.placements.compactMap(control).map { (feature, $0) } }
    }
}
