import Foundation
import PrinterKit
import StatusKit
import StreamKit

/// What `layerwatch probe` connects to: a URL as typed, the same with its access code read from
/// standard input, or a saved printer's camera with its code from the keyring — the last two keep
/// the code off the command line.
enum ProbeTarget {
    /// Why no source could be had, in a sentence for standard error.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        /// The kind of failure when the printer was asked (`StatusFailure.kind`); nil: the target
        /// itself is wrong.
        var kind: String?
    }

    /// The first camera the printer a status URL names lists (`layerwatch cameras`: an Elegoo
    /// printer's, turned on first; a Flashforge printer's `cameraStreamUrl`), `secret` its code or
    /// password; a family whose printer lists none says how to reach its camera.
    static func printerCamera(_ url: String, secret: String?) throws -> StreamSource {
        let endpoint: StatusEndpoint
        do {
            endpoint = try StatusEndpoint.parse(url, secret: secret)
        } catch {
            throw Failure(description: error.description)
        }
        if let refusal = endpoint.cameraListRefusal { throw Failure(description: refusal) }
        let cameras: [ImportedCamera]
        do {
            cameras = try CameraImport.cameras(at: endpoint)
        } catch {
            throw Failure(description: "\(endpoint): \(error.userMessage)", kind: error.kind)
        }
        guard let camera = cameras.first(where: { $0.url != nil }), let cameraURL = camera.url else {
            throw Failure(description: String(format: tr("%@ lists no camera"), endpoint.description), kind: "notFound")
        }
        return try StreamSource.parse(cameraURL)
    }

    /// The source of a camera of the saved printer named `name` (or with that id): the one `camera`
    /// names (by name, or number from 1), the first when nil; a printer without a camera says so.
    static func savedPrinter(_ name: String, camera: CameraChoice, store: ConfigStore = .standard()) throws -> StreamSource {
        let (printer, problem) = try saved(name, store: store)
        guard !printer.cameras.isEmpty else {
            throw Failure(description: String(format: tr("“%@” has no camera: it is watched without a picture; “layerwatch status” shows its print status"),
                                              printer.name))
        }
        let chosen: PrinterCamera
        if let wanted = camera.name {
            let byNumber = Int(wanted).flatMap { printer.cameras.indices.contains($0 - 1) ? printer.cameras[$0 - 1] : nil }
            guard let found = byNumber ?? printer.cameras.first(where: { $0.name == wanted }) else {
                let names = printer.cameras.enumerated().map { String(format: tr("“%@”"), $1.title(at: $0)) }.joined(separator: ", ")
                throw Failure(description: String(format: tr("“%@” has no camera “%@”; it has %@"), printer.name, wanted, names))
            }
            chosen = found
        } else {
            chosen = printer.cameras[0]
        }
        do {
            let source = try printer.source(of: chosen)
            if chosen.url == nil { printer.statusEndpoint?.turnCameraOn() }  // its own camera may stream only once asked
            return source
        } catch {
            throw Failure(description: [problem, "\(error)"].compactMap { $0 }.joined(separator: " "))
        }
    }

    /// The saved printer `name` names: the one with that id, else the one so named, else (no printer
    /// being so named) the one at that number in the list, 1 the first; its secrets from the
    /// keyring, and what loading the config had to say. The id comes first so that an id always
    /// means its printer, whatever the others are called (go2rtc exports rely on it). A name
    /// several printers share is refused, listing them with what tells them apart: a command
    /// never acts on the first of two "Twin"s by chance.
    static func saved(_ name: String, store: ConfigStore = .standard()) throws -> (Printer, problem: String?) {
        let loaded = store.load(settingAside: false)
        let printers = loaded.config.printers
        if printers.isEmpty, let problem = loaded.problem { throw Failure(description: problem) }
        if let printer = printers.first(where: { $0.id.uuidString == name.uppercased() }) { return (printer, loaded.problem) }
        let named = printers.filter { $0.name == name }
        if named.count > 1 { throw Failure(description: ambiguity(name, named, in: printers)) }
        let numbered = Int(name).flatMap { printers.indices.contains($0 - 1) ? printers[$0 - 1] : nil }
        guard let printer = named.first ?? numbered else {
            let names = printers.map { String(format: tr("“%@”"), $0.name) }.joined(separator: ", ")
            throw Failure(description: names.isEmpty ? String(format: tr("no saved printer is called “%@”; there are none"), name)
                                                     : String(format: tr("no saved printer is called “%@”; there are %@"), name, names))
        }
        return (printer, loaded.problem)
    }

    /// Why `name` picks none of `named` (the printers of `printers` so called): each one's
    /// `--printer` choice, its number (or its id, where another printer is named after the number),
    /// with its address and id.
    private static func ambiguity(_ name: String, _ named: [Printer], in printers: [Printer]) -> String {
        let choices = named.map { printer in
            let number = String((printers.firstIndex { $0.id == printer.id } ?? 0) + 1)
            let choice = printers.contains { $0.name == number } ? printer.id.uuidString : number
            return printer.host.isEmpty ? String(format: tr("--printer %@ (id %@)"), choice, printer.id.uuidString)
                                        : String(format: tr("--printer %@ (at %@, id %@)"), choice, printer.host, printer.id.uuidString)
        }
        return String(format: tr("%ld saved printers are called “%@”: say which with %@"), named.count, name,
                      choices.joined(separator: tr(" or ")))
    }

    /// `url` with `code` put in as its password (user `bblp` when it names none, as Bambu printers
    /// want) or, for bambu-jpeg://, as its `code` parameter.
    static func url(_ url: String, withCode code: String) throws -> StreamSource {
        guard var components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            return try StreamSource.parse(url)
        }
        if scheme == "bambu-jpeg" {
            components.queryItems = (components.queryItems ?? []).filter { $0.name != "code" } + [URLQueryItem(name: "code", value: code)]
        } else {
            if components.user?.isEmpty ?? true { components.user = "bblp" }
            components.password = code
        }
        return try StreamSource.parse(components.string ?? url)
    }
}
