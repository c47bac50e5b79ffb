import CFFmpeg

/// What FFmpeg's `interrupt_callback` consults while it blocks: an object that says whether to stop
/// now (the session's `InterruptGate`, or the `RedirectGuard` standing in front of it).
protocol Interrupting: AnyObject {
    /// True aborts FFmpeg's blocking operation.
    func shouldInterrupt() -> Bool
}

extension Interrupting {
    /// The callback struct for `AVFormatContext.interrupt_callback` and AVIO opens; the object must
    /// outlive every context it is set on.
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(
            callback: { opaque in
                guard let opaque, let watcher = Unmanaged<AnyObject>.fromOpaque(opaque).takeUnretainedValue() as? Interrupting
                else { return 0 }
                return watcher.shouldInterrupt() ? 1 : 0
            },
            opaque: Unmanaged.passUnretained(self as AnyObject).toOpaque()
        )
    }
}
