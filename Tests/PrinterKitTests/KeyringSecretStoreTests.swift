import Foundation
import PrinterKit
import TestSupport
import XCTest

/// libsecret against a real Secret Service (gnome-keyring-daemon on a private session bus), and
/// the checks that keep the app starting fast where there is none. Each test body runs in a child
/// process (see `runInChild`); the parent only starts it and reads its verdict.
final class KeyringSecretStoreTests: XCTestCase {
    /// A private session bus with an unlocked keyring. The keyring needs a non-empty password: with
    /// an empty one `--unlock` does not create the login collection the default alias points to.
    private static let keyringSession = [
        "dbus-run-session", "--", "sh", "-c",
        "printf %s layerwatch-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec \"$@\"", "sh",
    ]

    func testStoresLooksUpReplacesAndRemovesCodes() throws {
        guard isChild() else { return try runInChild(launcher: Self.keyringSession) }
        let keyring = KeyringSecretStore()
        XCTAssertTrue(keyring.isAvailable())
        let id = UUID()
        XCTAssertNil(try keyring.accessCode(for: id))
        try keyring.store(accessCode: "12345678", for: id, label: "Layerwatch access code for test")
        XCTAssertEqual(try keyring.accessCode(for: id), "12345678")
        XCTAssertEqual(try searchItems(["xdg:schema": KeyringSecretStore.schemaName, "printer-id": id.uuidString]).count, 1)

        try keyring.store(accessCode: "87654321", for: id, label: "Layerwatch access code for test")
        XCTAssertEqual(try KeyringSecretStore().accessCode(for: id), "87654321")
        XCTAssertEqual(try searchItems(["printer-id": id.uuidString]).count, 1, "replaced, not added")

        try keyring.removeAccessCode(for: id)
        XCTAssertNil(try keyring.accessCode(for: id))
        XCTAssertNoThrow(try keyring.removeAccessCode(for: id))
    }

    func testConfigStoreKeepsCodesInTheKeyringNotTheFile() throws {
        guard isChild() else { return try runInChild(launcher: Self.keyringSession) }
        let store = ConfigStore.standard()
        XCTAssertEqual(store.secretsLocation, .keyring)
        XCTAssertEqual(store.fileURL.path, ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"]! + "/layerwatch/printers.json")
        XCTAssertEqual(try store.save(Fixtures.config).location, .keyring)
        let text = String(decoding: try Data(contentsOf: store.fileURL), as: UTF8.self)
        XCTAssertFalse(text.contains("12345678") || text.contains("abcdEF12") || text.contains("accessCode"), text)

        let restarted = ConfigStore.standard().load()
        XCTAssertNil(restarted.problem)
        XCTAssertEqual(restarted.config, Fixtures.config)

        var without = Fixtures.config
        without.printers.removeAll { $0.id == Fixtures.x1c.id }
        try store.save(without)
        XCTAssertNil(try KeyringSecretStore().accessCode(for: Fixtures.x1c.id))
        XCTAssertEqual(try KeyringSecretStore().accessCode(for: Fixtures.p1s.id), "abcdEF12")
    }

    /// libsecret against a Secret Service that asks the user to create a keyring, who cancels (as
    /// gnome-keyring's "Choose password for new keyring" prompt): the codes stay in the owner-only
    /// file, the save says which, and the dialog's claims say the file. Then, with a keyring that
    /// takes them, the move the user asks for takes them out of the file.
    func testACancelledPromptKeepsTheCodesInTheFileUntilTheUserMovesThem() throws {
        guard isChild() else { return try runInChild(launcher: ["dbus-run-session", "--"]) }
        let declining = try TestServer(script: "declining_secret_service.py", arguments: ["--mode", "dismiss"])
        let store = ConfigStore.standard()
        let saved = try store.save(Fixtures.config)
        XCTAssertNotNil(declining.waitFor("dismissed", timeout: 5), "the keyring prompted and the user cancelled")
        XCTAssertEqual(Set(saved.keptInFile), [Fixtures.x1c.id, Fixtures.p1s.id])
        XCTAssertTrue(saved.keyringAnswered)
        XCTAssertEqual(declining.events(named: "call").filter { $0.string("method") == "CreateCollection" }.count, 1,
                       "one prompt, not one per printer")
        let file = store.fileURL
        var text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        XCTAssertTrue(text.contains(#""accessCode" : "12345678""#) && text.contains(#""accessCode" : "abcdEF12""#))
        XCTAssertEqual(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int, 0o600)
        XCTAssertEqual(store.secretsPlace(for: Fixtures.x1c), .file(path: file.path))
        XCTAssertEqual(store.secretsPlace(for: nil), .keyringDeclined(path: file.path))
        // The user made a keyring meanwhile (the same service: libsecret keeps the owner it met first).
        XCTAssertNotNil(declining.perform(["cmd": "mode", "mode": "accept"]))
        let accepting = declining
        let restarted = ConfigStore.standard()
        let loaded = restarted.load()
        XCTAssertFalse(loaded.needsSave)
        try restarted.save(loaded.config)
        XCTAssertTrue(accepting.events(named: "stored").isEmpty, "nothing moves unasked")
        let movable = restarted.secretsToMove(among: loaded.config.printers)
        XCTAssertEqual(Set(movable), [Fixtures.x1c.id, Fixtures.p1s.id])
        restarted.requestMove(of: movable)
        XCTAssertEqual(Set(try restarted.save(loaded.config).moved), [Fixtures.x1c.id, Fixtures.p1s.id])
        XCTAssertEqual(accepting.events(named: "stored").count, 2)
        text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        XCTAssertFalse(text.contains("12345678") || text.contains("abcdEF12"), "the file has no code left")
        XCTAssertEqual(try KeyringSecretStore().accessCode(for: Fixtures.x1c.id), "12345678", "the keyring has it")
        XCTAssertEqual(restarted.secretsPlace(for: Fixtures.x1c), .keyring)
    }

    /// A locked keyring that does not unlock: the code stays in the file, and the save says so.
    func testALockedKeyringKeepsTheCodeInTheFile() throws {
        guard isChild() else { return try runInChild(launcher: ["dbus-run-session", "--"]) }
        let locked = try TestServer(script: "declining_secret_service.py", arguments: ["--mode", "locked"])
        XCTAssertThrowsError(try KeyringSecretStore().store(accessCode: "12345678", for: UUID(), label: "test"))
        let store = ConfigStore.standard()
        let saved = try store.save(AppConfig(printers: [Fixtures.x1c]))
        XCTAssertNotNil(locked.waitFor("call", timeout: 5) { $0.string("method") == "CreateItem" })
        XCTAssertEqual(saved.keptInFile, [Fixtures.x1c.id])
        XCTAssertTrue(String(decoding: try Data(contentsOf: store.fileURL), as: UTF8.self).contains(#""accessCode" : "12345678""#))
        XCTAssertEqual(store.secretsPlace(for: Fixtures.x1c), .file(path: store.fileURL.path))
    }

    func testWithoutASessionBusCodesGoToTheFileAtOnce() throws {
        guard isChild() else { return try runInChild() }
        let started = Date()
        let store = ConfigStore.standard()
        XCTAssertLessThan(Date().timeIntervalSince(started), 1.5)
        XCTAssertEqual(store.secretsLocation, .configFile)
        let saved = try store.save(Fixtures.config)
        XCTAssertEqual(saved.location, .configFile)
        XCTAssertEqual(Set(saved.keptInFile), [Fixtures.x1c.id, Fixtures.p1s.id], "the user is told")
        XCTAssertFalse(saved.keyringAnswered)
        XCTAssertTrue(String(decoding: try Data(contentsOf: store.fileURL), as: UTF8.self).contains("12345678"))
        XCTAssertEqual(store.secretsPlace(for: Fixtures.x1c), .file(path: store.fileURL.path))
    }

    func testABusWithoutASecretServiceIsNoKeyring() throws {
        guard isChild() else {
            let config = try makeTemporaryDirectory().appendingPathComponent("bus.conf")
            try Data(Self.busWithoutServices.utf8).write(to: config)
            return try runInChild(launcher: ["dbus-run-session", "--config-file=\(config.path)", "--"])
        }
        let started = Date()
        XCTAssertFalse(KeyringSecretStore().isAvailable(within: 5))
        XCTAssertLessThan(Date().timeIntervalSince(started), 1.5)
    }

    func testABusThatNeverAnswersIsGivenUpOnInTime() throws {
        guard isChild() else {
            let socket = try SilentSocket(path: try makeTemporaryDirectory().appendingPathComponent("bus").path)
            defer { socket.close() }
            return try runInChild(environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(socket.path)"])
        }
        let started = Date()
        XCTAssertFalse(KeyringSecretStore().isAvailable(within: 1))
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertGreaterThanOrEqual(elapsed, 0.9)
        XCTAssertLessThan(elapsed, 3)
    }

    /// A session bus that can start no service: no keyring can be activated on it.
    private static let busWithoutServices = """
    <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
     "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
    <busconfig>
      <type>session</type>
      <listen>unix:tmpdir=/tmp</listen>
      <auth>EXTERNAL</auth>
      <policy context="default">
        <allow send_destination="*" eavesdrop="true"/>
        <allow eavesdrop="true"/>
        <allow own="*"/>
      </policy>
    </busconfig>
    """

    /// Object paths of the keyring's unlocked items with these attributes, asked over D-Bus with
    /// gdbus rather than libsecret, so the schema name and attribute are checked independently.
    private func searchItems(_ attributes: [String: String]) throws -> [String] {
        let dictionary = attributes.map { "'\($0.key)': '\($0.value)'" }.joined(separator: ", ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gdbus", "call", "--session", "--dest", "org.freedesktop.secrets",
                             "--object-path", "/org/freedesktop/secrets",
                             "--method", "org.freedesktop.Secret.Service.SearchItems", "{\(dictionary)}"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let reply = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        // The reply is ([unlocked paths], [locked paths]), e.g. ([objectpath '/org/…/1'], @ao []).
        let unlocked = reply.split(separator: "]").first ?? ""
        return unlocked.split(separator: "'").filter { $0.hasPrefix("/org/freedesktop/secrets/") }.map(String.init)
    }
}
