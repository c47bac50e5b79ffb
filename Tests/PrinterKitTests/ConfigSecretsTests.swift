import Foundation
import PrinterKit
import TestSupport
import XCTest

/// Where `ConfigStore` puts access codes: in a keyring when it has one, otherwise in the
/// owner-only file, and what it tells the user about either.
final class ConfigSecretsTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory()
    }

    private var fileText: String {
        get throws { String(decoding: try Data(contentsOf: directory.appendingPathComponent("printers.json")), as: UTF8.self) }
    }

    func testKeyringHeldCodesStayOutOfTheFile() throws {
        let keyring = MemorySecretStore()
        let store = ConfigStore(directory: directory, secrets: keyring)
        XCTAssertEqual(store.secretsLocation, .keyring)
        XCTAssertEqual(try store.save(Fixtures.config).location, .keyring)

        XCTAssertFalse(try fileText.contains("12345678"))
        XCTAssertFalse(try fileText.contains("abcdEF12"))
        XCTAssertFalse(try fileText.contains("accessCode"))
        XCTAssertEqual(keyring.code(Fixtures.x1c.id), "12345678")
        XCTAssertEqual(keyring.code(Fixtures.p1s.id), "abcdEF12")

        let loaded = ConfigStore(directory: directory, secrets: keyring).load()
        XCTAssertNil(loaded.problem)
        XCTAssertEqual(loaded.config, Fixtures.config)
    }

    func testWithoutKeyringCodesAreInTheOwnerOnlyFile() throws {
        let store = ConfigStore(directory: directory, secrets: nil)
        XCTAssertEqual(store.secretsLocation, .configFile)
        XCTAssertEqual(try store.save(Fixtures.config).location, .configFile)

        XCTAssertTrue(try fileText.contains(#""accessCode" : "12345678""#))
        XCTAssertTrue(try fileText.contains(#""accessCode" : "abcdEF12""#))
        XCTAssertEqual(try permissions(store.fileURL), 0o600)
        XCTAssertEqual(store.secretsPlace(for: nil).sentence(for: .accessCode),
                       "No keyring (Secret Service) is running, so the access code is kept in \(directory.path)/printers.json, which only you can read.")
        XCTAssertEqual(ConfigStore(directory: directory, secrets: nil).load().config, Fixtures.config)
    }

    func testTheNoticeNeverWaitsForTheKeyring() throws {
        // (Asking would D-Bus-activate a keyring on the test bus: the tests with a keyring start their own.)
        let store = ConfigStore.standard(environment: ["XDG_CONFIG_HOME": directory.path])
        XCTAssertEqual(store.secretsPlace(for: nil), .keyringIfAnswering(path: store.fileURL.path), "nobody asked yet")
    }

    func testARefusingKeyringLeavesTheCodeInTheFileAndTheDialogSaysSo() throws {
        let keyring = MemorySecretStore()
        keyring.refuse()
        let store = ConfigStore(directory: directory, secrets: keyring)
        XCTAssertEqual(store.secretsPlace(for: nil), .keyring, "it answers: nothing declined yet")
        let saved = try store.save(Fixtures.config)
        XCTAssertEqual(saved.location, .configFile)
        XCTAssertEqual(Set(saved.keptInFile), [Fixtures.x1c.id, Fixtures.p1s.id], "the user is to be told which")
        XCTAssertTrue(saved.keyringAnswered)
        XCTAssertTrue(try fileText.contains(#""accessCode" : "12345678""#))
        XCTAssertEqual(try permissions(store.fileURL), 0o600)
        let path = store.fileURL.path
        XCTAssertEqual(store.secretsPlace(for: Fixtures.x1c), .file(path: path))
        XCTAssertEqual(store.secretsPlace(for: Fixtures.x1c).sentence(for: .accessCode),
                       "This access code is kept in \(path), which only you can read, not in your keyring.")
        XCTAssertEqual(store.secretsPlace(for: nil), .keyringDeclined(path: path), "a new code goes to the file too")
        XCTAssertEqual(keyring.storeCount, 0)

        var resized = Fixtures.config
        resized.window.width = 1000
        XCTAssertEqual(try store.save(resized).keptInFile, [], "told once: the codes were in the file already")
    }

    func testCodesInTheFileStayThereUntilTheUserMovesThem() throws {
        try ConfigStore(directory: directory, secrets: nil).save(Fixtures.config)
        let keyring = MemorySecretStore()
        let store = ConfigStore(directory: directory, secrets: keyring)
        let loaded = store.load()
        XCTAssertEqual(loaded.config, Fixtures.config)
        XCTAssertFalse(loaded.needsSave, "nothing moves unasked")
        XCTAssertEqual(Set(store.secretsToMove(among: loaded.config.printers)), [Fixtures.x1c.id, Fixtures.p1s.id])
        XCTAssertEqual(try store.save(loaded.config).location, .configFile)
        XCTAssertTrue(try fileText.contains("12345678"))
        XCTAssertEqual(keyring.storeCount, 0, "the keyring was not asked")

        store.requestMove(of: [Fixtures.x1c.id])
        let moved = try store.save(loaded.config)
        XCTAssertEqual(moved.moved, [Fixtures.x1c.id])
        XCTAssertFalse(try fileText.contains("12345678"))
        XCTAssertTrue(try fileText.contains("abcdEF12"), "only the one asked for")
        XCTAssertEqual(keyring.code(Fixtures.x1c.id), "12345678")
        XCTAssertEqual(store.secretsPlace(for: Fixtures.x1c), .keyring)
        XCTAssertEqual(store.secretsToMove(among: loaded.config.printers), [Fixtures.p1s.id])
    }

    func testAMoveAsksAKeyringThatDeclinedBefore() throws {
        let keyring = MemorySecretStore()
        keyring.refuse()
        let store = ConfigStore(directory: directory, secrets: keyring)
        try store.save(Fixtures.config)
        keyring.accept()
        store.requestMove(of: [Fixtures.x1c.id, Fixtures.p1s.id])
        let moved = try store.save(Fixtures.config)
        XCTAssertEqual(Set(moved.moved), [Fixtures.x1c.id, Fixtures.p1s.id])
        XCTAssertEqual(moved.keptInFile, [])
        let text = try fileText
        XCTAssertFalse(text.contains("12345678") || text.contains("abcdEF12"), text)
        XCTAssertEqual(store.secretsPlace(for: nil), .keyring)
    }

    func testUnchangedCodesAreNotStoredAgainAndRemovedPrintersLoseTheirs() throws {
        let keyring = MemorySecretStore()
        let store = ConfigStore(directory: directory, secrets: keyring)
        try store.save(Fixtures.config)
        XCTAssertEqual(keyring.storeCount, 2)

        var resized = Fixtures.config
        resized.window.width = 1000
        try store.save(resized)
        XCTAssertEqual(keyring.storeCount, 2)

        var edited = resized
        edited.printers[2].accessCode = "87654321"
        edited.printers.remove(at: 0)
        try store.save(edited)
        XCTAssertEqual(keyring.storeCount, 3)
        XCTAssertEqual(keyring.code(Fixtures.x1c.id), "87654321")
        XCTAssertNil(keyring.code(Fixtures.p1s.id))
    }

    func testBambuPrintersWithoutACodeAreNamedInTheBanner() throws {
        let keyring = MemorySecretStore()
        try ConfigStore(directory: directory, secrets: keyring).save(Fixtures.config)

        let elsewhere = ConfigStore(directory: directory, secrets: MemorySecretStore()).load()
        XCTAssertEqual(elsewhere.problem,
                       "The keyring has no access code for “P1S garage”, “X1C workshop”; enter them again in the printer settings.")
        XCTAssertEqual(elsewhere.config.printers.map(\.accessCode), ["", "", ""])

        let noKeyring = ConfigStore(directory: directory, secrets: nil).load()
        XCTAssertEqual(noKeyring.problem,
                       "The access codes of “P1S garage”, “X1C workshop” are in a keyring that is not running now; start it, or enter them again in the printer settings.")

        keyring.refuse()
        let refused = ConfigStore(directory: directory, secrets: keyring).load()
        XCTAssertEqual(refused.problem,
                       "The keyring could not give the access codes of “P1S garage”, “X1C workshop” (Refused()); enter them again in the printer settings.")
    }

    func testSavingAPrinterWithoutItsCodeKeepsTheKeyringsCopy() throws {
        let keyring = MemorySecretStore()
        try ConfigStore(directory: directory, secrets: keyring).save(Fixtures.config)
        // Started once without the keyring: codes are empty, and that save must not lose them.
        let without = ConfigStore(directory: directory, secrets: nil)
        try without.save(without.load().config)
        XCTAssertEqual(ConfigStore(directory: directory, secrets: keyring).load().config, Fixtures.config)
    }
}
