import Foundation
import StreamKit

/// What one printer family's status side is, declared once in the family's own folder: its
/// `layerwatch status` URL scheme, its usual port, how its URL reads, how it is connected to, what
/// it can be asked, and the cameras its host lists. `StatusEndpoint` knows families only through
/// this protocol and `StatusFamilies`.
protocol StatusFamily: Sendable {
    /// Its scheme, usual port and traits, in one value.
    var declared: StatusDeclaration { get }
    /// Why `layerwatch cameras` has nothing to list for it; nil when its host is asked.
    var cameraListRefusal: String? { get }

    /// `endpoint`'s URL for logs and messages, its secret masked; `host` is bracketed.
    func description(of endpoint: StatusEndpoint, host: String) -> String
    /// A new connection to `endpoint`.
    func makeConnection(to endpoint: StatusEndpoint, log: StatusLog) -> StatusConnection
    /// The cameras `endpoint`'s host lists (`CameraImport`).
    func importCameras(at endpoint: StatusEndpoint, stop: StopSignal?) throws(StatusFailure) -> [ImportedCamera]
    /// Asks the printer at `endpoint` to turn its own camera on (`turnsCameraOn`), for a camera
    /// opened without the status connection; nothing for others.
    func turnCameraOn(at endpoint: StatusEndpoint, stop: StopSignal?)
    /// The prints that ended which the printer at `endpoint` remembers, newest first; none for a
    /// printer that keeps no history.
    func printerHistory(at endpoint: StatusEndpoint, stop: StopSignal?) throws(StatusFailure) -> [RememberedPrint]
    /// Why its printers cannot take a file of `kind` from Layerwatch ("Klipper prints G-code, not 3MF
    /// projects"), in the user's terms; nil when they can.
    func refusal(of kind: PrintFile.Kind) -> String?
    /// Sends `file` to the printer at `endpoint` (its plate `plate` for a 3MF project) and has it
    /// start printing it, on the caller's thread (never the main loop's), reading the file in
    /// bounded memory and calling `progress` as it goes, until it is done or `stop` is signalled
    /// (`.cancelled`: no print starts). Whether the printer is free to print is the caller's check.
    func send(_ file: PrintFile, to endpoint: StatusEndpoint, plate: Int, stop: StopSignal,
              progress: @escaping @Sendable (UploadProgress) -> Void) -> UploadOutcome
}

extension StatusFamily {
    /// The URL scheme (`bambu`), which also names the family in endpoints and logs.
    var scheme: String { declared.scheme }
    /// The status API's port when a URL or a printer names none.
    var usualPort: Int { declared.usualPort }
    var speaksHTTP: Bool { declared.traits.contains(.speaksHTTP) }
    var hasSpeedProfiles: Bool { declared.traits.contains(.speedProfiles) }
    var hasSwitchableLight: Bool { declared.traits.contains(.switchableLight) }
    var cancelsPrints: Bool { declared.traits.contains(.cancelsPrints) }
    var turnsCameraOn: Bool { declared.traits.contains(.turnsCameraOn) }
    var cameraListRefusal: String? { nil }

    /// A family whose printer has only its own camera lists none.
    func importCameras(at endpoint: StatusEndpoint, stop: StopSignal?) throws(StatusFailure) -> [ImportedCamera] { [] }
    func turnCameraOn(at endpoint: StatusEndpoint, stop: StopSignal?) {}
    func printerHistory(at endpoint: StatusEndpoint, stop: StopSignal?) throws(StatusFailure) -> [RememberedPrint] { [] }
    func refusal(of kind: PrintFile.Kind) -> String? { tr("Layerwatch cannot send files to this printer.") }
    func send(_ file: PrintFile, to endpoint: StatusEndpoint, plate: Int, stop: StopSignal,
              progress: @escaping @Sendable (UploadProgress) -> Void) -> UploadOutcome {
        .refused(refusal(of: file.kind) ?? tr("Layerwatch cannot send files to this printer."))
    }
}

/// A family `layerwatch status` reaches by URL (all but the demo printer): how its URL reads.
protocol StatusURLFamily: StatusFamily {
    /// The endpoint `url` names, `host` unbracketed; `key` is the secret given or the URL's `key`.
    func endpoint(_ url: URLComponents, host: String, key: String?, secret: String?) throws(StatusEndpoint.ParseError) -> StatusEndpoint
}

extension StatusURLFamily {
    /// `secret` when the URL or the command line gave one, else the refusal `missing` (where the
    /// printer or its host shows it, how to give it).
    func required(_ secret: String?, missing: @autoclosure () -> String) throws(StatusEndpoint.ParseError) -> String {
        guard let secret, !secret.isEmpty else { throw StatusEndpoint.ParseError(description: missing()) }
        return secret
    }

    /// Other schemes read as this family's (`klipper` for Moonraker).
    var aliases: [String] { declared.aliases }
    /// The URL the usage hints show (`moonraker://HOST`).
    var urlExample: String { declared.urlExample }
}

/// A family whose URL carries only the printer's address (`creality://HOST[:PORT]`): no login, no
/// serial, so its endpoint and description are the address alone.
protocol AddressOnlyStatusFamily: StatusURLFamily {}

extension AddressOnlyStatusFamily {
    func endpoint(_ url: URLComponents, host: String, key: String?, secret: String?) throws(StatusEndpoint.ParseError) -> StatusEndpoint {
        StatusEndpoint(family: self, host: host, port: url.port ?? usualPort)
    }

    func description(of endpoint: StatusEndpoint, host: String) -> String {
        "\(scheme)://\(host):\(endpoint.port)"
    }
}

/// What a family's status side is called and can do, declared in one value by each family: its
/// scheme, usual port, the URL its usage hints show and its traits.
struct StatusDeclaration: Sendable {
    let scheme: String
    let usualPort: Int
    /// The URL the usage hints show; empty for a family reached by no URL (the demo printer).
    var urlExample = ""
    /// Other schemes read as this family's.
    var aliases: [String] = []
    var traits: StatusTraits = []
}

/// What a family's printers can do beyond reporting, each trait read where it matters.
struct StatusTraits: OptionSet, Sendable {
    let rawValue: Int
    /// Its status API is HTTP (`StatusEndpoint.baseURL`).
    static let speaksHTTP = StatusTraits(rawValue: 1 << 0)
    /// The printer has speed profiles (Bambu's silent, standard, sport, ludicrous).
    static let speedProfiles = StatusTraits(rawValue: 1 << 1)
    /// Layerwatch can switch its chamber light.
    static let switchableLight = StatusTraits(rawValue: 1 << 2)
    /// Its own apps call ending a print "cancel" rather than "stop" (`PrintCommandText`).
    static let cancelsPrints = StatusTraits(rawValue: 1 << 3)
    /// Its status connection turns the printer's own camera on when it connects (an Elegoo
    /// printer's camera streams only once asked).
    static let turnsCameraOn = StatusTraits(rawValue: 1 << 4)
}
