import Foundation
import GtkKit
import StreamKit

/// Makes one printer's timelapse pictures a video in the videos folder, on the taker's queue. A
/// video made goes to the taker's `onVideo` and its pictures are thrown away. A video that cannot
/// be written (a full disk, a folder not writable) leaves no file: its pictures are set aside whole
/// in `unsaved`, the taker's `onFailure` says why, and `retry` makes them a video later (when the
/// app starts, and whenever another print of the printer ends).
struct TimelapseVideoMaker: Sendable {
    weak var taker: TimelapseTaker?
    let id: UUID
    /// The printer's name (with its camera's when it has several), for the video's name and the failure's words.
    let printer: String
    let videoFolder: URL
    /// Where pictures wait whose video could not be made, one folder each.
    let unsaved: URL

    /// Makes `store`'s pictures (of `job`) a video and throws them away; when the video cannot be
    /// written, sets them aside and says why.
    func make(_ store: TimelapseFrames, job: String, failed: Bool) {
        do {
            try video(of: store, job: job, failed: failed)
            store.clear()
        } catch {
            let reason = error.localizedDescription, printer = printer
            GLibLog.warning("timelapse video: \(reason)")
            do {
                _ = try store.setAside(to: unsaved.appendingPathComponent(UUID().uuidString), failed: failed)
            } catch {
                GLibLog.warning("timelapse: the pictures stay where they are: \(error.localizedDescription)")
            }
            MainLoopExecutor.main.runOnMainActor { [taker] in taker?.onFailure(printer, reason) }
        }
    }

    /// Makes a video of each timelapse set aside; those made are removed, the others wait on (a
    /// log line says why: the user was told when it first failed).
    func retry() {
        let folders = (try? FileManager.default.contentsOfDirectory(at: unsaved, includingPropertiesForKeys: nil)) ?? []
        for folder in folders.sorted(by: { $0.path < $1.path }) {
            let store = TimelapseFrames(folder: folder)
            guard let job = store.job, store.count > 0 else { continue }
            do {
                try video(of: store, job: job, failed: store.failed)
                store.remove()
            } catch {
                GLibLog.warning("timelapse video of pictures set aside in \(folder.path): \(error.localizedDescription)")
            }
        }
    }

    /// Encodes `store`'s pictures into a new video named after the printer and now, and hands it on.
    private func video(of store: TimelapseFrames, job: String, failed: Bool) throws {
        try ExclusiveFile.makeFolder(videoFolder)
        let name = SavedFiles.name(printer: String(format: tr("%@ timelapse"), printer), at: Date(), extension: "mp4")
        let video = try TimelapseEncoder.video(of: store.pictures, to: videoFolder.appendingPathComponent(name))
        MainLoopExecutor.main.runOnMainActor { [taker, id] in taker?.onVideo(id, video, job, failed) }
    }
}
