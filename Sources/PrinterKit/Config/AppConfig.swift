import Foundation

/// Everything Layerwatch restores at start: the printers in tab order, which tab was shown, which
/// printers' tabs were closed, the main window's size, the mini windows that were open and the farm
/// view's settings. `ConfigStore` keeps it in `printers.json`.
public struct AppConfig: Hashable, Sendable {
    /// The `formatVersion` this build writes; a file with a higher one is not read (see `NewerFormat`).
    /// Version 2 added Klipper and OctoPrint printers, camera mounting and per-printer
    /// notifications; version-1 files load as they are (every new field has its default). The farm
    /// view's settings (`farm`) are optional from version 2: a file without them gets the defaults.
    /// Version 3 gave a printer a list of cameras: a version-1 or 2 file, where each camera was a
    /// printer of its own, loads through `FormatTwoMigration`.
    public static let formatVersion = 3

    /// The sizes a saved window may have: a hand-edited or damaged file can hold any number, and
    /// GTK takes 32-bit sizes; anything outside is brought to the nearest end.
    public static let windowSizes = 100...8192

    /// The main window's size as the user left it.
    public struct Window: Codable, Hashable, Sendable {
        @WindowDimension public var width: Int
        @WindowDimension public var height: Int
        public var maximized: Bool

        public static let standard = Window(width: 960, height: 680, maximized: false)

        public init(width: Int, height: Int, maximized: Bool) {
            self.width = width
            self.height = height
            self.maximized = maximized
        }

        /// Each field read on its own: one that is missing or bad takes the standard window's.
        public init(from decoder: Decoder) throws {
            let fields = try LenientFields(decoder, keyedBy: CodingKeys.self)
            self.init(width: fields.value(.width) ?? Self.standard.width, height: fields.value(.height) ?? Self.standard.height,
                      maximized: fields.value(.maximized) ?? Self.standard.maximized)
        }

        private enum CodingKeys: String, CodingKey {
            case width, height, maximized
        }
    }

    /// A printer's camera detached into its own small window.
    public struct MiniWindow: Codable, Hashable, Sendable {
        public var printerID: UUID
        /// Which of the printer's cameras it shows; nil (a format-1 or 2 file): the first.
        public var cameraID: UUID?
        @WindowDimension public var width: Int
        @WindowDimension public var height: Int
        /// Where its top-left corner was on the screen, on X11; nil where the app cannot know or
        /// set it (Wayland), for a window never placed, and in files from before it was kept.
        public var x: Int?
        public var y: Int?

        /// The positions a saved window may have: X11's coordinates are 16-bit.
        public static let positions = -32768...32767

        public init(printerID: UUID, cameraID: UUID?, width: Int, height: Int, x: Int? = nil, y: Int? = nil) {
            self.printerID = printerID
            self.cameraID = cameraID
            self.width = width
            self.height = height
            self.x = x
            self.y = y
        }

        /// The printer, camera and size as they always were; the position leniently (a missing or
        /// bad one leaves the window where the desktop puts it).
        public init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let fields = LenientFields(container)
            let inRange = { (value: Int) in Self.positions.contains(value) ? value : nil }
            self.init(printerID: try container.decode(UUID.self, forKey: .printerID),
                      cameraID: try container.decodeIfPresent(UUID.self, forKey: .cameraID),
                      width: try container.decode(WindowDimension.self, forKey: .width).wrappedValue,
                      height: try container.decode(WindowDimension.self, forKey: .height).wrappedValue,
                      x: fields.value(.x, as: Int.self, inRange), y: fields.value(.y, as: Int.self, inRange))
        }

        private enum CodingKeys: String, CodingKey {
            case printerID, cameraID, width, height, x, y
        }
    }

    /// The farm view: whether the window shows every printer at once, and in which order.
    public struct Farm: Codable, Hashable, Sendable {
        /// The window opens in the farm view.
        public var shown: Bool
        /// Tiles needing attention come first (failed and paused, then the print ending soonest);
        /// otherwise the printers' own order.
        public var attentionFirst: Bool

        public static let standard = Farm(shown: false, attentionFirst: true)

        public init(shown: Bool, attentionFirst: Bool) {
            self.shown = shown
            self.attentionFirst = attentionFirst
        }

        /// Each field read on its own: one that is missing or bad takes the standard setting.
        public init(from decoder: Decoder) throws {
            let fields = try LenientFields(decoder, keyedBy: CodingKeys.self)
            self.init(shown: fields.value(.shown) ?? Self.standard.shown,
                      attentionFirst: fields.value(.attentionFirst) ?? Self.standard.attentionFirst)
        }

        private enum CodingKeys: String, CodingKey {
            case shown, attentionFirst
        }
    }

    /// Why a file was not read: a newer Layerwatch wrote it, and reading it here would lose what it added.
    public struct NewerFormat: Error, Equatable {
        public let version: Int
    }

    public var printers: [Printer]
    public var selectedPrinterID: UUID?
    public var window: Window
    public var miniWindows: [MiniWindow]
    /// The printers whose tab the user closed: still saved and watched, in the farm view and the
    /// Printers menu, which opens the tab again. Optional in the file (older files: none closed).
    public var closedTabs: Set<UUID>
    /// Whether the user was already told how to keep the mini window on top on Wayland (once).
    public var keepAboveHintShown: Bool
    public var farm: Farm
    public var preferences: Preferences
    /// Whether the user was already told, the first time the window closed to the background, that
    /// Layerwatch keeps watching and how to quit (once).
    public var backgroundNoticeShown: Bool

    public init(printers: [Printer] = [], selectedPrinterID: UUID? = nil, window: Window = .standard,
                miniWindows: [MiniWindow] = [], closedTabs: Set<UUID> = [], keepAboveHintShown: Bool = false,
                farm: Farm = .standard, preferences: Preferences = .standard, backgroundNoticeShown: Bool = false) {
        self.printers = printers
        self.selectedPrinterID = selectedPrinterID
        self.window = window
        self.miniWindows = miniWindows
        self.closedTabs = closedTabs
        self.keepAboveHintShown = keepAboveHintShown
        self.farm = farm
        self.preferences = preferences
        self.backgroundNoticeShown = backgroundNoticeShown
    }
}

extension AppConfig: Encodable {
    private enum CodingKeys: String, CodingKey {
        case formatVersion, printers, selectedPrinterID, window, miniWindows, closedTabs, keepAboveHintShown, farm, preferences
        case backgroundNoticeShown
    }

    /// A file read: the config, and the printers it had to leave out.
    struct Reading: Decodable {
        let config: AppConfig
        /// Where each printer left out was unreadable and why (the log has said so already).
        let droppedPrinters: [DecodingError]
        /// The file was an older format, so saving it now writes what was read in this one.
        let migrated: Bool
        /// The ids of older-format printers that became a camera of another printer (the keyring
        /// may still keep their camera's password under that id).
        let joinedIDs: Set<UUID>

        /// Reads a file of this format or an older one. Only a file that is not a printer list of
        /// such a format is refused; a printer without what it cannot do without (its id, name or a
        /// known kind) is left out alone, and any other field that is bad takes its default. A
        /// selection, mini window or closed tab of a printer that is not in the list is dropped rather than
        /// restored pointing at nothing.
        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let version = try container.decode(Int.self, forKey: .formatVersion)
            guard version <= AppConfig.formatVersion else { throw NewerFormat(version: version) }
            guard version >= 1 else {
                throw DecodingError.dataCorruptedError(forKey: .formatVersion, in: container,
                                                       debugDescription: "formatVersion \(version) does not exist")
            }
            let read = try container.decodeIfPresent([Droppable<Printer>].self, forKey: .printers) ?? []
            let fields = LenientFields(container)
            var config = AppConfig(
                printers: read.compactMap(\.element),
                selectedPrinterID: fields.value(.selectedPrinterID, as: UUID.self),
                window: fields.value(.window) ?? .standard,
                miniWindows: (fields.value(.miniWindows, as: [Droppable<MiniWindow>].self) ?? []).compactMap(\.element),
                closedTabs: Set((fields.value(.closedTabs, as: [Droppable<UUID>].self) ?? []).compactMap(\.element)),
                keepAboveHintShown: fields.value(.keepAboveHintShown) ?? false,
                farm: fields.value(.farm) ?? .standard,
                preferences: fields.value(.preferences) ?? .standard,
                backgroundNoticeShown: fields.value(.backgroundNoticeShown) ?? false
            )
            migrated = version < AppConfig.formatVersion
            joinedIDs = migrated ? FormatTwoMigration.joinPrinters(of: &config) : []
            let ids = Set(config.printers.map(\.id))
            if let selected = config.selectedPrinterID, !ids.contains(selected) { config.selectedPrinterID = nil }
            config.closedTabs.formIntersection(ids)
            config.miniWindows = config.miniWindows.filter { mini in
                config.printers.first { $0.id == mini.printerID }.map { printer in mini.cameraID.map { printer.camera(id: $0) != nil } ?? true } ?? false
            }
            self.config = config
            droppedPrinters = read.compactMap(\.error)
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Self.formatVersion, forKey: .formatVersion)
        try container.encode(printers, forKey: .printers)
        try container.encodeIfPresent(selectedPrinterID, forKey: .selectedPrinterID)
        try container.encode(window, forKey: .window)
        try container.encode(miniWindows, forKey: .miniWindows)
        try container.encode(closedTabs.sorted { $0.uuidString < $1.uuidString }, forKey: .closedTabs)
        try container.encode(keepAboveHintShown, forKey: .keepAboveHintShown)
        try container.encode(farm, forKey: .farm)
        try container.encode(preferences, forKey: .preferences)
        try container.encode(backgroundNoticeShown, forKey: .backgroundNoticeShown)
    }
}
