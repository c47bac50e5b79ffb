import CameraKit
import Foundation
import GtkKit
import StreamKit

/// Where a printer's pictures come from when no view asks: the notifications' fresh picture and the
/// timelapse's camera. It exists so the notifier and the timelapse taker reach the cameras through
/// the session registry and the views that show them, not through the application.
@MainActor
final class PrinterPictures {
    private let sessions: SessionRegistry
    private unowned let library: PrinterLibrary
    private let miniWindows: MiniWindows
    private let mainWindow: @MainActor () -> MainWindow?
    /// Each printer's picture being taken, with what waits for it: a picture asked for meanwhile
    /// (the journal's and the notification's at a print's end) shares it.
    private var waiting: [UUID: [@MainActor (VideoFrame?) -> Void]] = [:]
    /// Each printer's picture taken last, while it is fresh enough to be the next one asked for
    /// (`FreshPicture.maximumAge`), so that one is had without connecting again; let go after.
    private var taken: [UUID: (frame: VideoFrame, expiry: RepeatingTimer)] = [:]

    init(sessions: SessionRegistry, library: PrinterLibrary, miniWindows: MiniWindows, mainWindow: @escaping @MainActor () -> MainWindow?) {
        self.sessions = sessions
        self.library = library
        self.miniWindows = miniWindows
        self.mainWindow = mainWindow
    }

    /// A fresh picture of the printer's camera for a notification or the journal: the newest a
    /// view shows (its tab's, or its mini window's) or was taken a moment ago, else one taken from
    /// the camera (`FreshPicture`).
    func freshPicture(of id: UUID, _ completion: @escaping @MainActor (VideoFrame?) -> Void) {
        guard waiting[id] == nil else { return waiting[id, default: []].append(completion) }
        let shown = [mainWindow()?.tabs.page(id: id)?.surface?.shownFrame, miniWindows[id]?.surface.shownFrame, taken[id]?.frame]
            .compactMap { $0 }.max { $0.decodedAt < $1.decodedAt }
        waiting[id] = [completion]
        FreshPicture.fetch(shown: shown, session: pictureCamera(of: id)?.session) { [weak self] frame in
            guard let self else { return completion(frame) }
            if let frame {
                taken[id] = (frame, RepeatingTimer(seconds: UInt32(FreshPicture.maximumAge)) { [weak self] in self?.taken[id] = nil })
            }
            for waiter in waiting.removeValue(forKey: id) ?? [] { waiter(frame) }
        }
    }

    /// The camera a printer's pictures (timelapse, notifications) come from: the one its tab shows,
    /// else, with no tab (closed, or the window in the background), its first; nil for a printer
    /// without a camera.
    func pictureCamera(of id: UUID) -> (camera: Camera, session: StreamSession)? {
        if let page = mainWindow()?.tabs.page(id: id) { return page.camera.flatMap { camera in page.session.map { (camera, $0) } } }
        guard let printer = library.printer(id: id), let camera = try? PrinterCameras(printer: printer).cameras.first else { return nil }
        return (camera, sessions.session(for: camera.source))
    }
}
