/// The latest-frame mailbox between a session's thread and its consumers: for each part of the
/// picture the views have in sight (usually just the whole picture) one slot that each new frame
/// overwrites, never a queue, so a slow view skips frames instead of falling behind; and for each
/// consumer at most one pending wake-up, which takes whatever frame of its region is newest when it
/// runs. It is plain state: its session's lock guards every call.
struct FrameMailbox {
    /// One region's newest frame, and whether some consumer took it since it was put (a frame
    /// replaced untaken was dropped).
    private struct Slot {
        var frame: VideoFrame
        var taken = false
    }

    private var slots: [PictureRegion: Slot] = [:]
    /// Consumers with a wake-up queued on their executor and not yet run.
    private var pending: Set<ObjectIdentifier> = []

    /// The frame in `region`'s slot, if any.
    func newest(of region: PictureRegion) -> VideoFrame? { slots[region]?.frame }

    /// Puts one decoded picture's frames in their regions' slots; slots of regions no longer
    /// converted are emptied. Returns how many frames it replaced that no consumer took (drops).
    mutating func put(_ frames: [PictureRegion: VideoFrame]) -> Int {
        let dropped = frames.keys.filter { slots[$0]?.taken == false }.count
        slots = frames.mapValues { Slot(frame: $0) }
        return dropped
    }

    /// The consumers among `candidates` to wake for a new frame: those without a pending wake-up,
    /// which are now marked pending.
    mutating func wakeUps(for candidates: [StreamConsumer]) -> [StreamConsumer] {
        candidates.filter { pending.insert(ObjectIdentifier($0)).inserted }
    }

    /// Runs at the start of `consumer`'s wake-up: clears its mark and hands it the newest frame of
    /// `region`, the part of the picture it has in sight now (nil when the slot was emptied
    /// meanwhile, or its region changed since the frame was converted: the next frame is for it).
    mutating func take(for consumer: StreamConsumer, region: PictureRegion) -> VideoFrame? {
        pending.remove(ObjectIdentifier(consumer))
        guard slots[region] != nil else { return nil }
        slots[region]?.taken = true
        return slots[region]?.frame
    }

    /// Empties the slots (the session stopped); wake-ups still queued find nothing.
    mutating func empty() {
        slots = [:]
    }
}
