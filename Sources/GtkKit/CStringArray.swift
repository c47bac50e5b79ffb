import Glibc

/// Hands `strings` to C as a NULL-terminated `const char **` (accelerator lists, string models)
/// for the duration of `body`.
public func withCStringArray<Result>(_ strings: [String],
                                     _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> Result) -> Result {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    var array: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
    return array.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
}
