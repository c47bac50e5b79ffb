import Foundation
import StreamKit

/// The job's thumbnail for a client that polls its printer's API (Moonraker, OctoPrint): asked for
/// once per job, after the status naming the job was reported, so a slow or missing thumbnail
/// never holds the status back; a job whose thumbnail could not be had goes without one until the
/// job changes.
struct JobThumbnailWatch {
    /// The most of a thumbnail that is read: slicers embed a few hundred pixels a side, tens of kB.
    static let maximumBytes = 2 * 1024 * 1024
    private var job: String?
    private var thumbnail: JobThumbnail?

    /// Reports `status` with the thumbnail held for its job, then, when its job is not the one last
    /// asked about, asks `fetch` for that job's thumbnail and reports the status again with it if one
    /// came; nothing more once `stop` is set.
    mutating func report(_ status: PrinterStatus, stop: StopSignal, to report: (PrinterStatus) -> Void,
                         fetch: (String) -> Data?) {
        var status = status
        status.thumbnail = status.job != nil && status.job == job ? thumbnail : nil
        if stop.isStopped { return }
        report(status)
        guard status.job != job else { return }
        job = status.job
        thumbnail = job.flatMap { job in fetch(job).map { JobThumbnail(job: job, image: $0) } }
        guard let thumbnail, !stop.isStopped else { return }
        status.thumbnail = thumbnail
        report(status)
    }
}
