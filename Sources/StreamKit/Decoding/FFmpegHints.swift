import Foundation

/// FFmpeg's advice to whoever runs its command-line tools ("Consider increasing the value for the
/// 'analyzeduration' and 'probesize' options"): true of FFmpeg, meaningless to a Layerwatch user, so
/// it never becomes the detail of a message. It often shares a logged line with the diagnosis
/// ("Could not find codec parameters for stream 0 (…): unspecified size\nConsider increasing…"),
/// so only the advice is dropped.
enum FFmpegHints {
    /// The newest of `lines` that says more than advice, without the advice.
    static func lastDiagnosis(_ lines: some BidirectionalCollection<String>) -> String? {
        lines.reversed().lazy.compactMap(withoutHints).first
    }

    /// `line` without its advice: the clauses (ended by a line break, ". " or "; ") that give it are
    /// dropped. Nil when nothing else is left.
    static func withoutHints(_ line: String) -> String? {
        var kept = ""
        var rest = line[...]
        while !rest.isEmpty {
            let end = rest.range(of: #"\n|[.;] "#, options: .regularExpression)?.upperBound ?? rest.endIndex
            let clause = rest[..<end]
            if !isHint(clause) { kept += clause }
            rest = rest[end...]
        }
        let text = kept.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: ";")))
        return text.isEmpty ? nil : text
    }

    private static func isHint(_ clause: Substring) -> Bool {
        ["Consider increasing", "see the documentation", "probesize", "analyzeduration"].contains {
            clause.range(of: $0, options: .caseInsensitive) != nil
        }
    }
}
