import StreamKit

/// A status client's diagnostics, through `StreamLog` (the app's GLib log), each line naming the
/// printer's endpoint and scrubbed of its code or key.
struct StatusLog: Sendable {
    let endpoint: StatusEndpoint
    private let redactor: Redactor

    init(endpoint: StatusEndpoint) {
        self.endpoint = endpoint
        self.redactor = Redactor(secrets: endpoint.secrets)
    }

    func debug(_ message: @autoclosure () -> String) {
        StreamLog.log(.debug, redactor.redact("status \(endpoint): \(message())"))
    }

    func info(_ message: @autoclosure () -> String) {
        StreamLog.log(.info, redactor.redact("status \(endpoint): \(message())"))
    }
}
