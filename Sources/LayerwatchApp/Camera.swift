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
    /// The header bar's second line: where the pictures come from, without secrets.
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
        self.subtitle = subtitle ?? Self.location(of: source)
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
        switch source {
        case .rtsp(let url), .http(let url), .webrtc(let url, _): return url.host ?? tr("Camera")
        case .bambuJPEG(let host, _, _): return host
        case .file(let path, _): return ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        }
    }

    /// A short, secret-free description of where the pictures come from.
    static func location(of source: StreamSource) -> String {
        switch source {
        case .rtsp(let url): return "\(url.scheme?.uppercased() ?? "RTSP") · \(url.host ?? "")"
        case .http(let url): return "HTTP · \(url.host ?? "")"
        case .webrtc(let url, _): return "WebRTC · \(url.host ?? "")"
        case .bambuJPEG(let host, _, _): return "JPEG over TLS · \(host)"
        case .file(let path, _): return (path as NSString).lastPathComponent
        }
    }
}
