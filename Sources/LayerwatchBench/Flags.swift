/// The bench's command-line flags (`--name value` pairs and bare `--switch`es).
struct Flags {
    let arguments: [String]

    func has(_ name: String) -> Bool { arguments.contains(name) }

    func string(_ name: String) -> String? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    func double(_ name: String, default fallback: Double) -> Double { string(name).flatMap(Double.init) ?? fallback }

    func int(_ name: String, default fallback: Int) -> Int { string(name).flatMap(Int.init) ?? fallback }
}
