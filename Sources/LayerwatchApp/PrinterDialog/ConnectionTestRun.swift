import Foundation

/// One press of Test Connection: what each of its checks (a row each) tries, and where in the form
/// each failed one is said (`CheckFailurePlacement`), so the dialog can take the keyboard to the
/// field to fix once every check has answered, or when a failed row is activated.
@MainActor
final class ConnectionTestRun {
    /// What a check tries.
    enum Check: Equatable {
        /// The printer's status connection.
        case status
        /// The printer's camera of this id.
        case camera(UUID)
    }

    let checks: [Check]
    /// The failed checks' places in the form, by index.
    var placements: [Int: CheckFailurePlacement] = [:]

    init(checks: [Check]) {
        self.checks = checks
    }

    /// The first failed check with a place in the form, in the rows' order.
    var firstPlacedFailure: Int? { placements.keys.min() }
}
