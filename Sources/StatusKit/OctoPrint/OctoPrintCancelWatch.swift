import Foundation

/// What OctoPrint's state text leaves out: after a cancel it goes Cancelling → Operational, as after
/// any print, so a cancelled print would read as idle. A print seen under way (printing, paused or
/// cancelling) that turns operational short of 100 % was cancelled (a fault says "Error"); it stays
/// cancelled while the printer is operational with that job, until a print begins or another file
/// is chosen. A printer first seen operational shows idle: nothing says how its last print ended.
struct OctoPrintCancelWatch {
    /// The job of the print last seen under way, or last seen cancelled (the job may be nil).
    private var underWay: String??
    private var cancelled: String??

    /// `status` as read from `/api/job`, with an idle state after a print under way made cancelled.
    mutating func resolve(_ status: PrinterStatus) -> PrinterStatus {
        var status = status
        switch status.state {
        case .offline:
            break  // no report of the print: what was seen stands
        case .idle where underWay == .some(status.job) || cancelled == .some(status.job):
            status.state = .cancelled
            status.errorText = nil
            (underWay, cancelled) = (nil, .some(status.job))
        default:
            (underWay, cancelled) = (status.hasActiveJob ? .some(status.job) : nil, nil)
        }
        return status
    }
}
