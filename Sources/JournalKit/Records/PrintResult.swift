/// How a journal's print ended, or that it has not yet.
public enum PrintResult: String, Sendable, CaseIterable {
    case underway, finished, failed, cancelled
}
