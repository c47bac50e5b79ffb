import Foundation
import StreamKit

/// Keeps `AppConfig` in `$XDG_CONFIG_HOME/layerwatch/printers.json` and access codes in the keyring
/// when there is one and it takes them; it knows, per printer, which of the two holds its secret
/// (`secretsPlace(for:)`), from what the keyring did with it, and a secret the file holds stays
/// there until the user asks to move it (`requestMove`): a keyring that declined once (a cancelled
/// prompt) is not asked again unasked. A file it cannot read is moved aside, never overwritten,
/// and the app starts empty with a message for its banner; one with printers it cannot read is
/// copied aside and the rest loaded. Every save replaces the file atomically with mode 0600; a file changed on disk
/// since the store last read or wrote it (edited by hand) is renamed `printers.json.conflict-<time>`
/// first, never written over, and `outsideEdit` tells such a change for the app to follow it.
public final class ConfigStore: @unchecked Sendable {
    public static let fileName = "printers.json"

    /// What `load` found: the config to start with, and a message for the banner when something
    /// was wrong (the file was unreadable and set aside, or access codes could not be had).
    public struct Loaded: Sendable {
        public let config: AppConfig
        public let problem: String?
        /// True when the file holds secrets the keyring should keep instead, or is an older format
        /// (see `FormatTwoMigration`): saving at once moves them and writes this format.
        public var needsSave = false
    }

    /// What `save` did: where the codes went, and a sentence for the user when the file on disk
    /// had been changed since it was read and was kept aside.
    public struct Saved: Sendable {
        public let location: SecretsLocation
        public let keptAside: String?
        /// The printers whose secret was to go to the keyring (new, changed, or asked to move) and
        /// is in the file instead: the keyring declined it (a cancelled prompt, a locked keyring, no
        /// answer in time) or none answers. Empty for a store without a keyring.
        public var keptInFile: [UUID] = []
        /// Whether a keyring answered at all (false: `keptInFile` went there for want of one).
        public var keyringAnswered = false
        /// The printers whose secret left the file for the keyring in this save (`requestMove`).
        public var moved: [UUID] = []
    }

    /// What `outsideEdit` found in a file changed on disk since this store last read or wrote it.
    public enum OutsideEdit: Sendable {
        /// The file reads: its config (codes kept in the keyring not yet filled in: `fillSecrets`)
        /// and what it holds, for `adopt` once the app follows it.
        case edited(Loaded, contents: Data)
        /// The file cannot be read: a sentence saying so. It is left as it is, nothing adopted.
        case unreadable(String)
    }

    /// Why a save did not happen; the file on disk is as it was.
    public struct SaveError: Error, CustomStringConvertible {
        public let description: String
    }

    public let directory: URL
    public var fileURL: URL { directory.appendingPathComponent(Self.fileName) }
    /// Where access codes go; the dialog tells the user (see `secretsPlace`). The standard store
    /// asks the Secret Service first (at most two seconds), once; a load has usually done so.
    public var secretsLocation: SecretsLocation { keyring.available == nil ? .configFile : .keyring }
    /// True when access codes may go to a keyring, so loading their codes can wait on it.
    public var hasKeyring: Bool { keyring.exists }
    private let keyring: KeyringAccess

    /// Guards the state below and keeps loads and saves one at a time.
    private let lock = NSLock()
    /// The codes the keyring holds as far as this store knows, so unchanged ones are not sent again.
    private var codesInKeyring: [UUID: String] = [:]
    /// The printers of the file last loaded or saved: one missing from a save has its code removed.
    /// With them, the format-2 entries joined into another printer whose items were read into it.
    private var knownPrinterIDs: Set<UUID> = []
    /// The ids of the format-2 entries the file last loaded joined into another printer.
    private var joinedEntryIDs: Set<UUID> = []
    /// Guards the two below; never held during a keyring call, so the main loop may ask at any time.
    private let placesLock = NSLock()
    /// The printers whose secret the file holds as it is (not in the keyring), as last loaded or saved.
    private var secretsInFile: Set<UUID> = []
    /// The printers whose secret the next save moves from the file into the keyring (`requestMove`).
    private var moveRequested: Set<UUID> = []
    /// Set when an unreadable file could not be moved aside: saving would destroy it, so it refuses.
    private var keptUnreadableFile: String?
    /// What the file held when this store last read, wrote or adopted it (empty: no file); nil
    /// while it has done none of these (a store that only saves, as a test's, compares nothing).
    private var seen: Data?
    /// - Parameters:
    ///   - directory: where `printers.json` lives (tests pass a temporary one).
    ///   - secrets: where access codes go; nil keeps them in the file.
    public init(directory: URL, secrets: (any SecretStore)?) {
        self.directory = directory
        keyring = KeyringAccess(store: secrets)
    }

    private init(directory: URL, keyring: KeyringAccess) {
        self.directory = directory
        self.keyring = keyring
    }

    /// The app's store: the XDG config directory, and the keyring if a Secret Service answers
    /// within two seconds (so a desktop without one starts quickly). Making it asks nothing: the
    /// first load, save or `secretsLocation` does.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> ConfigStore {
        let secrets = KeyringSecretStore()
        return ConfigStore(directory: defaultDirectory(environment: environment),
                           keyring: KeyringAccess(store: secrets, check: { secrets.isAvailable() }))
    }

    /// Cancels the keyring calls in progress and keeps codes in the owner-only file from now on:
    /// for quitting while the keyring hangs (an unlock prompt nobody answers).
    public func abandonKeyring() {
        keyring.abandon()
    }

    /// `$XDG_CONFIG_HOME/layerwatch`, or `~/.config/layerwatch` when that is unset or not absolute.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return URL(fileURLWithPath: config).appendingPathComponent("layerwatch")
        }
        return URL(fileURLWithPath: UserHome.path(environment: environment)).appendingPathComponent(".config/layerwatch")
    }

    /// Where `printer`'s secret is (a saved printer that has one), or where one typed now would go
    /// (a new printer, or one without a secret), for the printer dialog. It never waits for the
    /// keyring (the dialog opens on the main loop): while nobody knows yet whether one answers, it
    /// says both.
    public func secretsPlace(for printer: Printer?) -> SecretsPlace {
        let path = fileURL.path
        if let printer, printer.keyringSecret != nil {
            return placesLock.withLock { secretsInFile.contains(printer.id) } ? .file(path: path) : .keyring
        }
        if keyring.isRefused && keyring.exists { return .keyringDeclined(path: path) }
        switch keyring.isKnownAvailable {
        case true?: return .keyring
        case false?: return .noKeyring(path: path)
        case nil: return .keyringIfAnswering(path: path)
        }
    }

    /// The printers of `printers` whose secret the file holds while a keyring answers (asking it
    /// first, once: may wait up to its check's time limit), which the user may move into it.
    public func secretsToMove(among printers: [Printer]) -> [UUID] {
        let inFile = placesLock.withLock { secretsInFile }
        let movable = printers.filter { $0.keyringSecret != nil && inFile.contains($0.id) }.map(\.id)
        guard !movable.isEmpty, keyring.available != nil else { return [] }
        return movable
    }

    /// Has the next save move these printers' secrets from the file into the keyring, asking it
    /// again even if it declined one before: the user asked.
    public func requestMove(of printerIDs: [UUID]) {
        placesLock.withLock { moveRequested.formUnion(printerIDs) }
    }

    /// The saved config with access codes filled in, or an empty one when there is no file or it
    /// cannot be read; in the latter case the file is renamed `printers.json.broken-<time>` first.
    /// Printers the file has but that cannot be read are left out, the rest kept, and a copy of the
    /// file as it was is kept under that name (the next save will not have them).
    /// `settingAside: false` only reports an unreadable file or printer (for one-off readers such as
    /// `layerwatch probe --printer`, which must not change the app's files).
    public func load(settingAside: Bool = true) -> Loaded {
        fillSecrets(loadFile(settingAside: settingAside))
    }

    /// `load` without the keyring: the file as it is, quickly, codes kept in the keyring missing.
    public func loadFile(settingAside: Bool = true) -> Loaded {
        lock.lock()
        defer { lock.unlock() }
        codesInKeyring = [:]
        knownPrinterIDs = []
        joinedEntryIDs = []
        keptUnreadableFile = nil
        seen = Data()
        guard !SafeFile.isAbsent(fileURL) else {
            return Loaded(config: AppConfig(), problem: nil)
        }
        var data = Data()
        let reading: AppConfig.Reading
        do {
            data = try SafeFile.read(fileURL)
            reading = try Self.decode(data)
        } catch {
            seen = data
            let reason = Self.reason(for: error)
            return Loaded(config: AppConfig(), problem: settingAside ? setAside(reason: reason)
                          : String(format: tr("Layerwatch could not read its printer list %@ (%@)."), fileURL.path, reason))
        }
        seen = data
        knownPrinterIDs = Set(reading.config.printers.map(\.id))
        joinedEntryIDs = reading.joinedIDs
        placesLock.withLock { secretsInFile = Self.secretsInClear(reading.config) }
        let problem = reading.droppedPrinters.isEmpty ? nil : leftOut(reading.droppedPrinters, of: data, keepingCopy: settingAside)
        return Loaded(config: reading.config, problem: problem, needsSave: reading.migrated && settingAside)
    }

    /// The file as it is now, when it differs from what this store last read, wrote or adopted:
    /// changed outside Layerwatch (by hand, by another program). Nil when it is the same, when the
    /// store has not read it yet, or when it is gone (the next save writes it again; the printers
    /// are kept). Printers it cannot read are left out, a copy of the file kept as `load` keeps one.
    public func outsideEdit() -> OutsideEdit? {
        lock.lock()
        defer { lock.unlock() }
        guard let seen, !SafeFile.isAbsent(fileURL) else { return nil }
        let data: Data
        let reading: AppConfig.Reading
        do {
            data = try SafeFile.read(fileURL)
            guard data != seen else { return nil }
            reading = try Self.decode(data)
        } catch {
            return .unreadable(String(format: tr("Layerwatch could not read its printer list %@ after it was changed (%@), so it goes on with the printers it had. If a change is saved in Layerwatch before the file is fixed, the file is kept aside first."),
                                      fileURL.path, Self.reason(for: error)))
        }
        joinedEntryIDs = reading.joinedIDs
        let problem = reading.droppedPrinters.isEmpty ? nil : leftOut(reading.droppedPrinters, of: data, keepingCopy: true)
        return .edited(Loaded(config: reading.config, problem: problem, needsSave: reading.migrated), contents: data)
    }

    /// Takes `contents` (an `outsideEdit`'s) as what the file holds now, the app following it: the
    /// next save writes over it without keeping it aside, and removes the codes of the printers it
    /// no longer has.
    public func adopt(_ contents: Data, printers: [Printer]) {
        lock.lock()
        defer { lock.unlock() }
        seen = contents
        knownPrinterIDs.formUnion(printers.map(\.id))
        if let reading = try? Self.decode(contents) {
            placesLock.withLock { secretsInFile = Self.secretsInClear(reading.config) }
        }
    }

    /// The printers of `config` (as the file has it) whose secret the file holds as it is, not masked.
    private static func secretsInClear(_ config: AppConfig) -> Set<UUID> {
        Set(config.printers.filter { $0.keyringSecret != nil && $0.withoutKeyringSecret != $0 }.map(\.id))
    }

    /// The config in `data`, the whole file; throws why it is not one.
    private static func decode(_ data: Data) throws -> AppConfig.Reading {
        guard !data.isEmpty else { throw SafeFile.Unreadable(description: tr("it is empty")) }
        return try JSONDecoder().decode(AppConfig.Reading.self, from: data)
    }

    /// `file` (from `loadFile`) with the codes and camera passwords the keyring keeps filled in, and
    /// its problem followed by any the keyring had; may wait on the keyring, up to its time limit.
    public func fillSecrets(_ file: Loaded) -> Loaded {
        guard !file.config.printers.isEmpty else { return file }
        lock.lock()
        defer { lock.unlock() }
        var filled = file.config
        let problem = [file.problem, fillAccessCodes(&filled)].compactMap { $0 }.joined(separator: " ")
        return Loaded(config: filled, problem: problem.isEmpty ? nil : problem, needsSave: file.needsSave)
    }

    /// Writes `config` atomically, its secrets to the keyring when there is one and it takes them
    /// (to the file for any it declines, and from then on without asking it until `requestMove`),
    /// and removes the codes of printers no longer in it. A secret the file holds stays there
    /// unless the user asked to move it. A file changed on disk since the store last read or wrote
    /// it is first renamed `printers.json.conflict-<yyyyMMdd-HHmmss>`, and the result says so.
    /// - Returns: where the codes went this time (`.configFile` if the keyring refused any), which
    ///   printers' secrets went to the file instead of the keyring or moved into it, and the
    ///   sentence on a file kept aside.
    @discardableResult
    public func save(_ config: AppConfig) throws -> Saved {
        lock.lock()
        defer { lock.unlock() }
        if let keptUnreadableFile { throw SaveError(description: keptUnreadableFile) }
        var written = config
        let current = Set(config.printers.map(\.id))
        let (inFile, moving) = placesLock.withLock { (secretsInFile, moveRequested) }
        if !moving.isEmpty { keyring.retry() }
        // A list with no code to keep or clear never wakes the keyring: on a desktop whose Secret
        // Service starts on demand, saving the window's size or view would otherwise start it.
        let needsKeyring = config.printers.contains { $0.keyringSecret != nil } || !knownPrinterIDs.subtracting(current).isEmpty
        let secrets = needsKeyring ? keyring.available : nil
        var location: SecretsLocation = secrets != nil || (!needsKeyring && keyring.isKnownAvailable == true) ? .keyring : .configFile
        var nowInFile: Set<UUID> = [], keptInFile: [UUID] = [], moved: [UUID] = []
        for index in written.printers.indices {
            let printer = written.printers[index]
            guard let secret = printer.keyringSecret else { continue }
            let stays = inFile.contains(printer.id) && !moving.contains(printer.id)
            guard !stays, let secrets, codesInKeyring[printer.id] == secret || store(secret, of: printer, in: secrets) else {
                nowInFile.insert(printer.id)
                location = .configFile
                if !stays && keyring.exists { keptInFile.append(printer.id) }
                continue
            }
            if inFile.contains(printer.id) { moved.append(printer.id) }
            written.printers[index] = printer.withoutKeyringSecret
        }
        placesLock.withLock { moveRequested.subtract(moving) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var keptAside: String?
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
            let target = fileURL.resolvingSymlinksInPath()
            keptAside = try keepAsideIfChanged(target)
            let data = try encoder.encode(written)
            try SafeFile.write(data, to: target)
            seen = data
        } catch {
            throw SaveError(description: String(format: tr("Layerwatch could not save its printer list: %@"), "\(error)"))
        }
        for removed in knownPrinterIDs.subtracting(current) {
            // A code left behind by a failed removal is only stale, and the file is already saved.
            if !keyring.isRefused { try? secrets?.removeAccessCode(for: removed) }
            codesInKeyring[removed] = nil
        }
        knownPrinterIDs = current
        placesLock.withLock { secretsInFile = nowInFile }
        return Saved(location: location, keptAside: keptAside, keptInFile: keptInFile, keyringAnswered: secrets != nil, moved: moved)
    }

    /// Stores `printer`'s `secret` in `secrets` unless the keyring declined one before; false when
    /// it does not take it (from then on it is not asked until the user asks to move a secret).
    private func store(_ secret: String, of printer: Printer, in secrets: any SecretStore) -> Bool {
        guard !keyring.isRefused else { return false }
        do {
            let label = switch printer.kind.secretNoun {
            case .accessCode?: tr("Layerwatch access code for %@")
            case .apiKey?: tr("Layerwatch API key for %@")
            case .password?: tr("Layerwatch printer password for %@")
            case .checkCode?: tr("Layerwatch check code for %@")
            case nil: tr("Layerwatch camera password for %@")
            }
            try secrets.store(accessCode: secret, for: printer.id, label: String(format: label, printer.name))
            codesInKeyring[printer.id] = secret
            return true
        } catch {
            keyring.decline()
            return false
        }
    }

    /// Renames the file at `target` to `printers.json.conflict-<time>` when it is there and differs
    /// from what the store last read or wrote (an edit the app has not followed), and says so.
    private func keepAsideIfChanged(_ target: URL) throws -> String? {
        guard let seen, !SafeFile.isAbsent(target), (try? SafeFile.read(target)) != seen else { return nil }
        let kept = try SafeFile.moveAside(target, suffix: Self.suffix("conflict"))
        return String(format: tr("The printer list %@ had been changed outside Layerwatch since it was read. That version was kept as %@ in %@, and Layerwatch saved its own."),
                      fileURL.path, kept.lastPathComponent, directory.path)
    }

    /// Fills in codes and camera passwords kept in the keyring; a message naming the printers left
    /// without one.
    private func fillAccessCodes(_ config: inout AppConfig) -> String? {
        guard config.printers.contains(where: \.lacksKeyringSecret) else { return nil }
        let secrets = keyring.available
        var missing: [String] = []
        var failure: String?
        for index in config.printers.indices {
            let printer = config.printers[index]
            guard printer.lacksKeyringSecret else { continue }
            guard let secrets, failure == nil else {
                missing.append(Self.quoted(printer.name))
                continue
            }
            do {
                if let code = try secrets.accessCode(for: printer.id) {
                    config.printers[index].restoreKeyringSecret(code)
                    codesInKeyring[printer.id] = code
                }
                // A camera joined from a format-2 entry keeps that entry's id, and its password may
                // still be in that entry's item (when no keyring ran the first time it was read).
                for camera in config.printers[index].camerasLackingPasswords where camera.id != printer.id {
                    guard let item = try secrets.accessCode(for: camera.id) else { continue }
                    config.printers[index].restoreKeyringSecret(item, camerasOnly: true)
                    // Removed by the next save, once this printer's item holds it.
                    if !config.printers[index].camerasLackingPasswords.contains(where: { $0.id == camera.id }) {
                        knownPrinterIDs.insert(camera.id)
                    }
                }
                if config.printers[index].lacksKeyringSecret {
                    missing.append(Self.quoted(printer.name))
                } else {
                    // The joined entries' items are not needed once this printer's item is written.
                    knownPrinterIDs.formUnion(joinedEntryIDs.intersection(config.printers[index].cameras.map(\.id)))
                }
            } catch {
                failure = "\(error)"
                missing.append(Self.quoted(printer.name))
            }
        }
        for index in config.printers.indices { config.printers[index].dropMissingKeyringSecret() }
        guard !missing.isEmpty else { return nil }
        let names = missing.joined(separator: ", ")
        if let failure {
            return String(format: tr("The keyring could not give the access codes of %@ (%@); enter them again in the printer settings."),
                          names, failure)
        }
        if secrets == nil {
            return String(format: tr("The access codes of %@ are in a keyring that is not running now; start it, or enter them again in the printer settings."),
                          names)
        }
        return String(format: tr("The keyring has no access code for %@; enter them again in the printer settings."), names)
    }

    /// Moves the unreadable file to `printers.json.broken-<yyyyMMdd-HHmmss>` and says so; when even
    /// that fails, remembers to refuse saving over it.
    private func setAside(reason: String) -> String {
        do {
            let kept = try SafeFile.moveAside(fileURL, suffix: Self.suffix("broken"))
            return String(format: tr("Layerwatch could not read its printer list (%@) and started without printers. The file was kept as %@ in %@."),
                          reason, kept.lastPathComponent, directory.path)
        } catch {
            let problem = String(format: tr("Layerwatch could not read its printer list %@ (%@) nor move it aside (%@). It started without printers and will not save any until that file is fixed or removed."),
                                 fileURL.path, reason, "\(error)")
            keptUnreadableFile = problem
            return problem
        }
    }

    /// Says which printers were left out of the file (`errors`: where and why) and, when
    /// `keepingCopy`, keeps `data` (the file as read) as `printers.json.broken-<time>` first, since
    /// the next save will not have them; when even that fails, remembers to refuse saving over it.
    private func leftOut(_ errors: [DecodingError], of data: Data, keepingCopy: Bool) -> String {
        let problem = String(format: tr("Layerwatch could not read %ld of its saved printers (%@) and left them out."),
                             errors.count, errors.map { Self.reason(for: $0) }.joined(separator: "; "))
        guard keepingCopy else { return problem }
        do {
            let kept = try SafeFile.copyAside(data, of: fileURL, suffix: Self.suffix("broken"))
            return problem + " " + String(format: tr("The file as it was is kept as %@ in %@."), kept.lastPathComponent, directory.path)
        } catch {
            let refusal = problem + " " + String(format: tr("It could not keep a copy of the file (%@), so it will not save any change until that file is fixed or removed."),
                                                 "\(error)")
            keptUnreadableFile = refusal
            return refusal
        }
    }

    /// `.<kind>-<yyyyMMdd-HHmmss>`: the suffix of a file kept aside now (`broken`, `conflict`).
    private static func suffix(_ kind: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return ".\(kind)-\(formatter.string(from: Date()))"
    }

    /// A short reason for the banner, naming where in the file the problem is but never a value.
    private static func reason(for error: Error) -> String {
        switch error {
        case let newer as AppConfig.NewerFormat:
            return String(format: tr("it was written by a newer Layerwatch (format %ld)"), newer.version)
        case let decoding as DecodingError:
            switch decoding {
            case .keyNotFound(let key, let context):
                return String(format: tr("%@ is missing"), (context.codingPath + [key]).configPath)
            case .typeMismatch(_, let context), .valueNotFound(_, let context):
                return String(format: tr("%@ has the wrong type"), context.codingPath.configPath)
            case .dataCorrupted(let context):
                return context.codingPath.isEmpty ? tr("it is not valid JSON") : String(format: tr("%@ is not valid"), context.codingPath.configPath)
            @unknown default:
                return tr("it is not a printer list")
            }
        default:
            return "\(error)"
        }
    }

    /// A printer's name in the quotation marks of the user's language.
    public static func quoted(_ name: String) -> String {
        // TRANSLATORS: a printer's name in quotation marks, as in the keyring messages.
        String(format: tr("“%@”"), name)
    }
}
