import Foundation
import StreamKit

/// A Prusa printer's status through PrusaLink (`PrusaLinkReport`): `/api/v1/status` every
/// `HTTPStatusAPI.pollInterval`, and `/api/v1/job` while it names a job, logged in by HTTP Digest as
/// `maker` with the password the printer shows (Settings → Network → PrusaLink), as PrusaLink's
/// own page does: the password never crosses the network. Only a PrusaLink whose 401 offers no
/// Digest login gets it as `X-Api-Key`, which PrusaLink also takes. The job's thumbnail, once per job, is its
/// `file.refs.thumbnail`. The job commands name the job's id: `PUT /api/v1/job/{id}/pause|resume`,
/// `DELETE /api/v1/job/{id}`; PrusaLink answers 409 to one that does not fit the printer's state
/// and 404 when the job is no longer the printer's.
final class PrusaLinkConnection: StatusConnection, @unchecked Sendable {
    /// PrusaLink's one user.
    static let user = "maker"
    private let api: HTTPStatusAPI
    private let lock = NSLock()
    private var jobID: Int?

    init(baseURL: URL, password: String) {
        api = HTTPStatusAPI(baseURL: baseURL, key: nil, digest: HTTPDigest(user: Self.user, password: password, keyHeader: "X-Api-Key"))
    }

    func run(stop: StopSignal, live: () -> Void, report: (PrinterStatus) -> Void) throws(StatusFailure) {
        var isLive = false
        var thumbnails = JobThumbnailWatch()
        while !stop.isStopped {
            let reading: PrusaLinkReport
            do throws(StatusFailure) {
                let status: [String: Any]
                do { status = try api.object("/api/v1/status", stop: stop) } catch { throw StatusFailure(error.failure) }
                let named = PrusaLinkReport(status: status, job: nil)
                reading = named.jobID == nil ? named : PrusaLinkReport(status: status, job: try job(stop: stop))
            } catch {
                if stop.isStopped { return }
                throw error
            }
            if !isLive {
                isLive = true
                live()
            }
            lock.withLock { jobID = reading.jobID }
            let api = api
            thumbnails.report(reading.printerStatus, stop: stop, to: report) { _ in
                reading.thumbnailPath.flatMap { try? api.data($0, limit: JobThumbnailWatch.maximumBytes, stop: stop) }
            }
            stop.wait(seconds: HTTPStatusAPI.pollInterval)
        }
    }

    /// `/api/v1/job`; nil when it has none (204, no body) or answers 4xx other than 401/403/404.
    private func job(stop: StopSignal) throws(StatusFailure) -> [String: Any]? {
        let data: Data
        do {
            data = try api.data("/api/v1/job", limit: HTTPFetch.maximumBytes, stop: stop)
        } catch where error.otherClientError {
            return nil
        } catch {
            throw StatusFailure(error.failure)
        }
        return data.isEmpty ? nil : try JSONValue.object(data)
    }

    /// PrusaLink has no light Layerwatch knows how to switch.
    func setChamberLight(_ on: Bool) {}

    func send(_ command: PrintCommand, answer: @escaping @Sendable (CommandOutcome) -> Void) {
        guard let id = lock.withLock({ jobID }) else {
            answer(.refused(tr("PrusaLink reports no print under way")))
            return
        }
        let gone = tr("PrusaLink no longer has that print: it has ended")
        switch command {
        case .pause:
            api.command("/api/v1/job/\(id)/pause", method: "PUT", json: nil,
                        refusals: [409: tr("PrusaLink can pause only a print that is printing"), 404: gone], answer: answer)
        case .resume:
            api.command("/api/v1/job/\(id)/resume", method: "PUT", json: nil,
                        refusals: [409: tr("PrusaLink can resume only a paused print"), 404: gone], answer: answer)
        case .stop:
            api.command("/api/v1/job/\(id)", method: "DELETE", json: nil,
                        refusals: [409: tr("PrusaLink cannot stop the print in the state it is in"), 404: gone], answer: answer)
        case .speed:
            answer(.refused(tr("PrusaLink has no speed profiles")))
        case .printFile:
            answer(.refused(PrintCommandText.startsWhenSent))
        }
    }

    /// The stop signal already interrupts its requests and its wait between polls.
    func interrupt() {}
}
