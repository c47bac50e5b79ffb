import Foundation

/// What every bench that measures Layerwatch's window stands on: the app under test (`--app`), a
/// private X session with a connection that reads its screen, and Layerwatch's throwaway home. One
/// place sets them up, and takes them down in order (the screen's connection before the X server).
struct ScreenDesk {
    let app: String
    let session: XDisplaySession
    let screen: XScreen
    let home: LayerwatchHome

    /// The environment Layerwatch runs in on the desk: the X session's, its home, `renderer`'s.
    func appEnvironment(_ renderer: Renderer) -> [String: String] {
        session.environment.merging(home.environment) { $1 }.merging(renderer.environment) { $1 }
    }

    /// Sets the desk up in `directory`, runs `body` on it, and takes it down.
    static func run<T>(in directory: URL, flags: Flags, _ body: (ScreenDesk) throws -> T) throws -> T {
        BenchRun.progress("X server, window manager, session bus")
        let session = try XDisplaySession(directory: directory)
        defer { session.stop() }
        return try body(ScreenDesk(app: flags.string("--app") ?? ".build-screen/release/layerwatch", session: session,
                                   screen: try XScreen(display: session.display),
                                   home: LayerwatchHome(directory: directory.appendingPathComponent("home"))))
    }
}
