/// A printer as the journal knows it: the id its prints carry and its name at its newest print —
/// a printer removed since is still one to filter by.
public struct JournalPrinter: Equatable, Sendable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
