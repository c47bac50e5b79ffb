import ArgumentParser
import Foundation
import LayerwatchApp
import StreamKit

/// `layerwatch [URL]`: opens the viewer window on a camera URL, or on the built-in demo camera.
struct ViewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Open the viewer (the default): on URL if given, else on the demo camera."
    )

    @Argument(help: "A camera URL or file to show instead of the demo camera.")
    var url: String?

    @Option(name: .long, help: "The name to show for the camera.")
    var name: String?

    func run() throws {
        let camera: LayerwatchApplication.Camera
        if let url {
            do {
                let source = try StreamSource.parse(url)
                camera = .init(name: name ?? Self.defaultName(for: source), source: source)
            } catch {
                FileHandle.standardError.write(Data("error: \(error.description)\n".utf8))
                throw ExitCode(2)
            }
        } else {
            guard let demo = LayerwatchApplication.Camera.demo() else {
                FileHandle.standardError.write(Data("error: the demo clip (data/demo-printer.mp4) was not found.\n".utf8))
                throw ExitCode(1)
            }
            camera = demo
        }
        let status = MainActor.assumeIsolated { LayerwatchApplication(camera: camera).run() }
        if status != 0 { throw ExitCode(status) }
    }

    private static func defaultName(for source: StreamSource) -> String {
        switch source {
        case .rtsp(let url), .http(let url): return url.host ?? "Camera"
        case .file(let path, _): return ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        }
    }
}
