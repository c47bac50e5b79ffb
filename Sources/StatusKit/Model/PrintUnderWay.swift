import Foundation
import Synchronization

/// The print a command is meant for: its job's name and which of the prints the status monitors
/// have seen begin it is. A command carries the print the user saw (the stop question names its
/// job), and the monitor sends it only while that same print is under way: a stop or pause
/// confirmed after the print ended, or after another began (even one of the same name), never
/// reaches the next one.
public struct PrintUnderWay: Equatable, Sendable {
    public let job: String?
    /// Which print this is of all the prints any monitor has seen begin: an edited printer's new
    /// monitor never takes a print for the one its old monitor saw.
    let number: Int
    private static let begun = Atomic<Int>(0)

    /// The print under way in `status`, `previous` being the one before: the same while the printer
    /// reports the same job preparing, printing or paused; a new one when a print begins or the
    /// job changes; nil while none is. An offline printer says nothing of its print: the previous
    /// one stays.
    static func following(_ previous: PrintUnderWay?, in status: PrinterStatus) -> PrintUnderWay? {
        switch status.state {
        case .offline:
            return previous
        case .idle, .finished, .failed, .cancelled:
            return nil
        case .preparing, .printing, .paused:
            if let previous, previous.job == status.job { return previous }
            return PrintUnderWay(job: status.job, number: begun.wrappingAdd(1, ordering: .relaxed).newValue)
        }
    }
}
