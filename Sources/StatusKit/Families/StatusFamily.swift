import Foundation
import StreamKit

/// What one printer family's status side is, declared once in the family's own folder: its
/// `layerwatch status` URL scheme, its usual port, how its URL reads, how it is connected to, what
/// it can be asked, and the cameras its host lists. `StatusEndpoint` knows families only through
/// this protocol and `StatusFamilies`.
protocol StatusFamily: Sendable {
    /// The URL scheme (`bambu`), which also names the family in endpoints and logs.
    var scheme: String { get }
    /// The status API's port when a URL or a printer names none.
    var usualPort: Int { get }
    /// Whether its status API is HTTP (`StatusEndpoint.baseURL`).
    var speaksHTTP: Bool { get }
    /// Whether the printer has speed profiles (Bambu's silent, standard, sport, ludicrous).
    var hasSpeedProfiles: Bool { get }
    /// Whether Layerwatch can switch its chamber light.
    var hasSwitchableLight: Bool { get }
    /// Whether its own apps call ending a print "cancel" rather than "stop" (`PrintCommandText`).
    var cancelsPrints: Bool { get }
    /// Why `layerwatch cameras` has nothing to list for it; nil when its host is asked.
    var cameraListRefusal: String? { get }

    /// `endpoint`'s URL for logs and messages, its secret masked; `host` is bracketed.
    func description(of endpoint: StatusEndpoint, host: String) -> String
    /// A new connection to `endpoint`.
    func makeConnection(to endpoint: StatusEndpoint, log: StatusLog) -> StatusConnection
    /// The cameras `endpoint`'s host lists (`CameraImport`).
    func importCameras(at endpoint: StatusEndpoint, stop: StopSignal?) throws(StatusFailure) -> [ImportedCamera]
    /// Whether its status connection turns the printer's own camera on when it connects (an
    /// Elegoo printer's camera streams only once asked).
    var turnsCameraOn: Bool { get }
    /// Asks the printer at `endpoint` to turn its own camera on (`turnsCameraOn`), for a camera
    /// opened without the status connection; nothing for others.
    func turnCameraOn(at endpoint: StatusEndpoint, stop: StopSignal?)
}

extension StatusFamily {
    var speaksHTTP: Bool { false }
    var hasSpeedProfiles: Bool { false }
    var hasSwitchableLight: Bool { false }
    var cancelsPrints: Bool { false }
    var cameraListRefusal: String? { nil }

    /// A family whose printer has only its own camera lists none.
    func importCameras(at endpoint: StatusEndpoint, stop: StopSignal?) throws(StatusFailure) -> [ImportedCamera] { [] }
    var turnsCameraOn: Bool { false }
    func turnCameraOn(at endpoint: StatusEndpoint, stop: StopSignal?) {}
}

/// A family `layerwatch status` reaches by URL (all but the demo printer): how its URL reads.
protocol StatusURLFamily: StatusFamily {
    /// Other schemes read as this family's (`klipper` for Moonraker).
    var aliases: [String] { get }
    /// The URL the usage hints show (`moonraker://HOST`).
    var urlExample: String { get }
    /// The endpoint `url` names, `host` unbracketed; `key` is the secret given or the URL's `key`.
    func endpoint(_ url: URLComponents, host: String, key: String?, secret: String?) throws(StatusEndpoint.ParseError) -> StatusEndpoint
}

extension StatusURLFamily {
    var aliases: [String] { [] }
}
