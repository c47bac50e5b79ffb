import CGtk
import Foundation
import GtkKit
import StreamKit

/// The GTK application: starts libadwaita, installs the style and the main-loop bridge, and opens
/// the window on the camera asked for (the built-in demo camera when none is).
@MainActor
public final class LayerwatchApplication {
    public static let applicationID = "io.github.layerwatch.Layerwatch"

    /// What the window shows.
    public struct Camera {
        public var name: String
        public var source: StreamSource
        /// The header bar's second line: where the pictures come from, without secrets.
        public var subtitle: String

        public init(name: String, source: StreamSource, subtitle: String? = nil) {
            self.name = name
            self.source = source
            self.subtitle = subtitle ?? Self.location(of: source)
        }

        /// The looping demo clip shipped in data/, or nil when it cannot be found.
        public static func demo() -> Camera? {
            DataFiles.demoClip().map {
                Camera(name: "Demo printer", source: .file(path: $0.path, loop: true), subtitle: "Built-in demo camera")
            }
        }

        /// A short, secret-free description of where the pictures come from.
        static func location(of source: StreamSource) -> String {
            switch source {
            case .rtsp(let url): return "\(url.scheme?.uppercased() ?? "RTSP") · \(url.host ?? "")"
            case .http(let url): return "HTTP · \(url.host ?? "")"
            case .file(let path, _): return (path as NSString).lastPathComponent
            }
        }
    }

    private let application: OpaquePointer
    private let camera: Camera
    private let sessions = SessionRegistry()

    public init(camera: Camera) {
        self.camera = camera
        application = OpaquePointer(adw_application_new(Self.applicationID, G_APPLICATION_NON_UNIQUE))
        connectSignal(application, "startup") { [self] in startup() }
        connectSignal(application, "activate") { [self] in activate() }
    }

    /// Runs the main loop until the last window closes; returns the exit status.
    public func run() -> Int32 {
        g_application_run(gcast(application), 0, nil)
    }

    private func startup() {
        DispatchMainQueueBridge.install()
        AppStyle.install()
        setAccelerators(application, "win.snapshot", ["<Control>s"])
        setAccelerators(application, "win.show-stats", ["<Control>i"])
        setAccelerators(application, "win.fullscreen", ["F11"])
        setAccelerators(application, "win.leave-fullscreen", ["Escape"])
        setAccelerators(application, "win.reconnect", ["<Control>r"])
    }

    private func activate() {
        let page = PrinterPage(name: camera.name, session: sessions.session(for: camera.source))
        let window = MainWindow(application: application, page: page, subtitle: camera.subtitle)
        window.present()
    }
}
