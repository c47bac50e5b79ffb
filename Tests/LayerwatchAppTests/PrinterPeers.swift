import Foundation
import GtkKit
@testable import LayerwatchApp
import PrinterKit
import StatusKit
import TestSupport
import XCTest

/// The peers the app's status and notification tests share: the notification server on the test's
/// session bus, a fake Bambu P1S (mosquitto and the printer's client), a fake Centauri Carbon, and an app started on config
/// and state directories of the test's own.
extension XCTestCase {
    /// The notification server on this test's session bus (dbus-run-session in `make test`), with
    /// `arguments` (`--freedesktop-only`, `--body-markup`). It must run before the process's first
    /// notification: GLib picks its way there once.
    func notificationServer(arguments: [String] = []) throws -> TestServer {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw XCTSkip("needs a private session bus: run under dbus-run-session (make test)")
        }
        let server = try TestServer(script: "notification_server.py", arguments: arguments)
        addTeardownBlock { server.stop() }
        return server
    }

    /// A fake P1S printer's MQTT side on `host`, and the saved printer pointing at it (its camera
    /// at `host`:6000, where the P1 family has it).
    func fakeP1S(code: String, on host: String, name: String = "Bench P1S") throws -> (TestServer, Printer) {
        let server = try TestServer(script: "bambu_mqtt_printer.py", arguments: ["--bind", host, "--code", code, "--model", "P1S", "--partial"])
        addTeardownBlock { server.stop() }
        let serial = try XCTUnwrap(server.waitFor("ready")?.string("serial"))
        let printer = Printer(name: name, kind: .bambuJPEG(.p1s), host: host, apiPort: server.port, serial: serial, accessCode: code)
        return (server, printer)
    }

    /// A fake Centauri Carbon on a loopback address of its own with the printer's own ports (its
    /// SDCP websocket on 3030, its camera on 3031, where the Elegoo family finds them), and that
    /// address; `arguments` for the fake besides (`--interval`).
    func fakeCentauriCarbon(arguments: [String] = []) throws -> (server: TestServer, host: String) {
        let host = randomLoopbackAddress()
        let server = try TestServer(script: "elegoo_sdcp_server.py", arguments: [
            "--bind", host, "--port", "\(StatusEndpoint.elegooPort)", "--camera-port", "\(StatusEndpoint.elegooCameraPort)",
        ] + arguments)
        addTeardownBlock { server.stop() }
        return (server, host)
    }

    /// A config directory holding `printers` and an empty state directory.
    func directories(with printers: [Printer], selected: UUID? = nil) throws -> (config: URL, state: URL) {
        let config = try makeTemporaryDirectory(), state = try makeTemporaryDirectory()
        try ConfigStore(directory: config, secrets: nil).save(AppConfig(printers: printers, selectedPrinterID: selected ?? printers.first?.id))
        return (config, state)
    }
}

/// An address of 127/8 other than 127.0.0.x, so a camera can have the P1's own port 6000.
func randomLoopbackAddress() -> String {
    "127.\(Int.random(in: 1...254)).\(Int.random(in: 0...255)).\(Int.random(in: 1...254))"
}

/// Starts the app on `config` (no keyring) with notifications' memory in `state`, and opens its window.
@MainActor
func startApp(config: URL, state: URL) throws -> (LayerwatchApplication, MainWindow) {
    let app = registeredApp(config: config, state: state)
    app.activate()
    return (app, try XCTUnwrap(app.window))
}

/// The app on `config` (no keyring) with its state in `state`, registered on the session bus
/// under an id of its own, no window yet: for a start in the background, or a window later.
@MainActor
func registeredApp(config: URL, state: URL) -> LayerwatchApplication {
    let app = LayerwatchApplication(store: { ConfigStore(directory: config, secrets: nil) },
                                    id: "io.github.layerwatch.Test\(UInt32.random(in: 0...UInt32.max))", stateDirectory: state)
    app.registerWithoutRunning()
    return app
}
