import CameraKit
import Foundation
import StreamKit

/// One camera a view shows: its id, the printer (or tab) it belongs to, a name, a secret-free
/// subtitle and the source. The app builds these from saved printers' cameras, a URL on the
/// command line, or the demo clip (each of those last two a tab of its own).
public struct Camera: Identifiable, Equatable, Sendable {
    public var id: UUID
    /// The printer whose camera it is: its tab's, tile's and mini window's identity, and whose
    /// status goes beside it. A command-line or demo camera is its own (`id`).
    public var printerID: UUID
    /// The printer's name.
    public var name: String
    /// What files and the switcher call it: the printer's name, with the camera's when the printer
    /// has more than one ("Voron — Nozzle").
    public var fullName: String
    /// The camera's own title in the switcher ("Nozzle", "Camera 2").
    public var title: String
    public var source: StreamSource
    /// The header bar's second line, one rule for every camera (`subtitle(_:of:host:)`): what it is
    /// · where it is ("X1 Carbon · 192.168.1.5", "Klipper · 192.168.1.20", "Camera · 10.0.0.7"), no secrets.
    public var subtitle: String
    /// The built-in demo camera, which gives way to the first printer the user adds.
    public var isDemo = false
    /// How the camera is mounted; every view shows its picture upright.
    public var orientation = PictureOrientation.upright

    public init(id: UUID = UUID(), printerID: UUID? = nil, name: String, fullName: String? = nil, title: String? = nil,
                source: StreamSource, subtitle: String? = nil) {
        self.id = id
        self.printerID = printerID ?? id
        self.name = name
        self.fullName = fullName ?? name
        self.title = title ?? name
        self.source = source
        self.subtitle = subtitle ?? Self.subtitle(tr("Camera"), of: source)
    }

    /// The looping demo clip shipped in data/, or nil when it cannot be found.
    public static func demo() -> Camera? {
        DataFiles.demoClip().map {
            var demo = Camera(name: tr("Demo printer"), source: .file(path: $0.path, loop: true), subtitle: tr("Built-in demo camera"))
            demo.isDemo = true
            return demo
        }
    }

    /// A name for a camera opened by URL: its host, or the file's name.
    public static func defaultName(for source: StreamSource) -> String {
        if case .file(let path, _) = source { return ((path as NSString).lastPathComponent as NSString).deletingPathExtension }
        return host(of: source) ?? tr("Camera")
    }

    /// The subtitle's rule: `what` (a model, a family, "Camera"), then the host it is reached at —
    /// `host`, else the source's; a file's name alone.
    static func subtitle(_ what: String, of source: StreamSource?, host: String? = nil) -> String {
        if case .file(let path, _)? = source { return (path as NSString).lastPathComponent }
        guard let host = host.flatMap({ $0.isEmpty ? nil : $0 }) ?? source.flatMap(Self.host(of:)) else { return what }
        return "\(what) · \(host)"
    }

    /// The host the pictures come from; nil for a file.
    private static func host(of source: StreamSource) -> String? {
        switch source {
        case .rtsp(let url), .http(let url), .webrtc(let url, _): return url.host
        case .bambuJPEG(let host, _, _): return host
        case .file: return nil
        }
    }
}
