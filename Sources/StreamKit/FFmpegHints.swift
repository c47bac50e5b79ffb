/// FFmpeg's advice to whoever runs its command-line tools ("Consider increasing the value for the
/// 'analyzeduration' and 'probesize' options"): true of FFmpeg, meaningless to a Layerwatch user, so
/// it never becomes the detail of a message.
enum FFmpegHints {
    static func isHint(_ line: String) -> Bool {
        ["Consider increasing", "see the documentation", "probesize", "analyzeduration"].contains {
            line.range(of: $0, options: .caseInsensitive) != nil
        }
    }
}
