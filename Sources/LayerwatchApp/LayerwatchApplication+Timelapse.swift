import CGtk
import Foundation
import GtkKit
import StreamKit

/// Timelapses of prints: the taker, what it does with a video (or says when it could not make
/// one), and opening one (`app.open-timelapse`, a feature).
extension LayerwatchApplication {
    /// Makes the taker (it follows the printers from `syncPrinterStatus`), its pictures waiting in
    /// `folder`.
    func startTimelapses(in folder: URL) {
        timelapses = TimelapseTaker(folder: folder, hub: statusHub,
                                    session: { [weak self] id in self?.window?.tabs.page(id: id)?.session },
                                    printer: { [weak self] id in self?.library.printer(id: id) })
        timelapses.onVideo = { [weak self] id, video, job, failed in
            guard let self else { return }
            notifier.offerTimelapse(video, job: job, failed: failed, of: id)
            window?.toast(String(format: tr("Saved the timelapse “%@” in Videos/Layerwatch"), video.lastPathComponent))
        }
        timelapses.onFailure = { [weak self] printer, reason in
            self?.window?.toast(String(format: tr("The timelapse of “%@” could not be saved: %@. Its pictures are kept and it is made when the printer's next print ends or Layerwatch starts again."), printer, reason))
        }
    }

    /// Opens `video` in the desktop's application for it (a video player): the finish
    /// notification's Open Timelapse.
    func openTimelapse(_ video: URL) {
        var error: UnsafeMutablePointer<GError>?
        if g_app_info_launch_default_for_uri(video.absoluteString, nil, &error) == 0 {
            GLibLog.warning("could not open \(video.path): \(error.map { String(cString: $0.pointee.message) } ?? "?")")
            g_clear_error(&error)
        }
    }
}
