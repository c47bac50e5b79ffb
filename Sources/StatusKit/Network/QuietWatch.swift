import Foundation

/// A pushing printer that falls quiet (a websocket's, which sends its status unasked): asked once
/// more when it has said nothing for `quietAfter` seconds, given up as dead after `silenceLimit`.
/// One per connection run; the Creality and Elegoo connections share it.
struct QuietWatch {
    /// Seconds without a message before the printer is asked again.
    let quietAfter: TimeInterval
    /// Seconds without any message before the connection counts as dead.
    let silenceLimit: TimeInterval
    /// Whether it was asked during the current quiet spell.
    private var asked = false

    init(quietAfter: TimeInterval, silenceLimit: TimeInterval) {
        self.quietAfter = quietAfter
        self.silenceLimit = silenceLimit
    }

    /// Checks the quiet since `lastHeard`: throws `.timeout` past the limit, runs `ask` once per
    /// quiet spell.
    mutating func check(lastHeard: Date, ask: () -> Void) throws(StatusFailure) {
        let quiet = Date().timeIntervalSince(lastHeard)
        if quiet >= silenceLimit { throw .timeout }
        if quiet >= quietAfter && !asked {
            asked = true
            ask()
        } else if quiet < quietAfter {
            asked = false
        }
    }
}
