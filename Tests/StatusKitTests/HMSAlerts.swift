import StatusKit

/// The HMS alerts of `codes` as a printer reports them (`0300_0100_0001_0007`), for statuses built
/// by hand.
func hms(_ codes: String...) -> [BambuAlert] {
    hms(codes)
}

func hms(_ codes: [String]) -> [BambuAlert] {
    codes.map { BambuAlert(hmsCode: $0)! }
}
