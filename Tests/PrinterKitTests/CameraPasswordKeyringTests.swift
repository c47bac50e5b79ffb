import Foundation
import PrinterKit
import TestSupport
import XCTest

/// A camera's password (in the URL's user part or query) is a secret like an access code: in the
/// printer's keyring item when there is one, the file keeping the URL with `***` in its place.
final class CameraPasswordKeyringTests: XCTestCase {
    private var directory: URL!
    private let camera = Printer(name: "Door cam", kind: .generic, cameras: [PrinterCamera(url: "rtsp://admin:Pa55w0rd@192.168.1.50:554/live?token=T0k3n&channel=1")])
    private var config: AppConfig { AppConfig(printers: [camera, Fixtures.x1c]) }

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory()
    }

    private var fileText: String {
        get throws { String(decoding: try Data(contentsOf: directory.appendingPathComponent("printers.json")), as: UTF8.self) }
    }

    func testTheCameraPasswordGoesToTheKeyringAndComesBack() throws {
        let keyring = MemorySecretStore()
        XCTAssertEqual(try ConfigStore(directory: directory, secrets: keyring).save(config).location, .keyring)
        let text = try fileText
        XCTAssertFalse(text.contains("Pa55w0rd") || text.contains("T0k3n"), text)
        XCTAssertTrue(text.contains("rtsp://admin:***@192.168.1.50:554/live?token=***&channel=1"), text)
        let item = try XCTUnwrap(keyring.code(camera.id).flatMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] })
        XCTAssertEqual(item["cameraURLs"] as? [String: String], [camera.cameras[0].id.uuidString: camera.cameras[0].url!])

        let loaded = ConfigStore(directory: directory, secrets: keyring).load()
        XCTAssertNil(loaded.problem)
        XCTAssertFalse(loaded.needsSave)
        XCTAssertEqual(loaded.config, config)
    }

    func testWithoutTheKeyringTheCameraIsNamedAndItsMaskedURLIsKept() throws {
        try ConfigStore(directory: directory, secrets: MemorySecretStore()).save(config)
        let without = ConfigStore(directory: directory, secrets: nil)
        let loaded = without.load()
        XCTAssertEqual(loaded.problem,
                       "The access codes of “Door cam”, “X1C workshop” are in a keyring that is not running now; start it, or enter them again in the printer settings.")
        try without.save(loaded.config)
        XCTAssertFalse(try fileText.contains("Pa55w0rd"))
    }

    func testAPasswordInAnExistingFileMovesToTheKeyringWhenAsked() throws {
        try ConfigStore(directory: directory, secrets: nil).save(config)
        XCTAssertTrue(try fileText.contains("Pa55w0rd"))
        let keyring = MemorySecretStore()
        let store = ConfigStore(directory: directory, secrets: keyring)
        let loaded = store.load()
        XCTAssertEqual(loaded.config, config)
        XCTAssertEqual(Set(store.secretsToMove(among: loaded.config.printers)), [camera.id, Fixtures.x1c.id], "the app offers to move them")
        store.requestMove(of: store.secretsToMove(among: loaded.config.printers))
        try store.save(loaded.config)
        XCTAssertFalse(try fileText.contains("Pa55w0rd"))
        XCTAssertFalse(try fileText.contains("12345678"))
        XCTAssertEqual(ConfigStore(directory: directory, secrets: keyring).load().config, config)
    }

    func testAURLWithoutAPasswordStaysInTheFile() throws {
        let keyring = MemorySecretStore()
        try ConfigStore(directory: directory, secrets: keyring).save(AppConfig(printers: [Fixtures.webcam]))
        XCTAssertTrue(try fileText.contains(Fixtures.webcam.cameras[0].url!))
        XCTAssertNil(keyring.code(Fixtures.webcam.id))
    }
}
