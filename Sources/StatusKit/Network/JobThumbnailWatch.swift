import Foundation

/// The job's thumbnail for a client that polls its printer's API (Moonraker, OctoPrint): asked for
/// once per job, after the status naming the job was reported, so a slow or missing thumbnail
/// never holds the status back; a job whose thumbnail could not be had goes without one until the
/// job changes.
struct JobThumbnailWatch {
    /// The most of a thumbnail that is read: slicers embed a few hundred pixels a side, tens of kB.
    static let maximumBytes = 2 * 1024 * 1024
    private var job: String?
    private var thumbnail: JobThumbnail?

    /// The thumbnail held for `job`; nil for another job (until `update`), or none.
    func held(for job: String?) -> JobThumbnail? {
        job != nil && job == self.job ? thumbnail : nil
    }

    /// Asks `fetch` for `job`'s thumbnail when the job is not the one last asked about; returns
    /// the thumbnail when one came (the status is then reported again with it).
    mutating func update(for job: String?, fetch: (String) -> Data?) -> JobThumbnail? {
        guard job != self.job else { return nil }
        self.job = job
        thumbnail = job.flatMap { job in fetch(job).map { JobThumbnail(job: job, image: $0) } }
        return thumbnail
    }
}
