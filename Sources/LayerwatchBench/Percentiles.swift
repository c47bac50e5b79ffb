/// Order statistics of a sample (nearest-rank).
struct Percentiles {
    private let sorted: [Double]

    init(_ values: [Double]) { sorted = values.sorted() }

    var count: Int { sorted.count }

    /// The `p`-th percentile (0…100), nil for an empty sample.
    func value(_ p: Double) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    var median: Double? { value(50) }
}
