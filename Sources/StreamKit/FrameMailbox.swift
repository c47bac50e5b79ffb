/// The latest-frame mailbox between a session's thread and its consumers: one slot that each new
/// frame overwrites, never a queue, so a slow view skips frames instead of falling behind; and for
/// each consumer at most one pending wake-up, which takes whatever frame is newest when it runs.
/// It is plain state: its session's lock guards every call.
struct FrameMailbox {
    private var latest: VideoFrame?
    /// Whether some consumer took `latest` since it was put; a frame replaced untaken was dropped.
    private var taken = true
    /// Consumers with a wake-up queued on their executor and not yet run.
    private var pending: Set<ObjectIdentifier> = []

    /// The frame in the slot, if any.
    var newest: VideoFrame? { latest }

    /// Puts `frame` in the slot; returns true when it replaced a frame no consumer took (a drop).
    mutating func put(_ frame: VideoFrame) -> Bool {
        defer {
            latest = frame
            taken = false
        }
        return !taken
    }

    /// The consumers among `candidates` to wake for a new frame: those without a pending wake-up,
    /// which are now marked pending.
    mutating func wakeUps(for candidates: [StreamConsumer]) -> [StreamConsumer] {
        candidates.filter { pending.insert(ObjectIdentifier($0)).inserted }
    }

    /// Runs at the start of `consumer`'s wake-up: clears its mark and hands it the newest frame
    /// (nil when the slot was emptied meanwhile).
    mutating func take(for consumer: StreamConsumer) -> VideoFrame? {
        pending.remove(ObjectIdentifier(consumer))
        guard let latest else { return nil }
        taken = true
        return latest
    }

    /// Empties the slot (the session stopped); wake-ups still queued find nothing.
    mutating func empty() {
        latest = nil
        taken = true
    }
}
