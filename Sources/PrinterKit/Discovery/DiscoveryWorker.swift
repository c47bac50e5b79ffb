import Foundation

/// The listening thread behind `PrinterDiscovery`: polls the sockets and the wake-up pipe, parses
/// what arrives, asks again every `Asking.interval`, keeps the table, forgets silent printers on
/// time and publishes the list at most `publishInterval` apart, so a flood of announcements costs
/// this thread and not the UI. `stop()` joins the thread, so none outlives the listener; the
/// sockets close when the worker is released.
final class DiscoveryWorker: @unchecked Sendable {
    /// Datagrams read from one socket before the thread looks at the wake-up pipe again, so a
    /// flood can't hold off `stop()`.
    private static let batch = 64
    /// The shortest time between two published lists: a change right after a publish waits for
    /// the rest of it, and the changes meanwhile go out as one list.
    static let publishInterval: TimeInterval = 0.25

    /// The asking socket, what it asks (each to its destination) and how often: the first round
    /// is sent before the thread starts, the next one `interval` later.
    struct Asking {
        let socket: DiscoverySocket
        let asks: [DiscoveryAsk]
        let interval: TimeInterval
    }

    /// The listening sockets, then the asking one.
    private let sockets: [DiscoverySocket]
    private let asking: Asking?
    private let wakeup: DiscoveryWakeup
    /// The (empty) table the thread starts with: its expiry and address-hold rules.
    private let initialTable: DiscoveryTable
    private let publish: @Sendable ([DiscoveredPrinter]) -> Void
    private var thread = pthread_t()
    /// What the wake-up pipe was signalled for: to stop, or to ask now (`askNow`).
    private let requests = NSLock()
    private var stopping = false
    private var askRequested = false

    /// `publish` is called on the thread with the sorted list when it has changed, at most once
    /// every `publishInterval`.
    init(sockets: [DiscoverySocket], asking: Asking?, wakeup: DiscoveryWakeup, table: DiscoveryTable,
         publish: @escaping @Sendable ([DiscoveredPrinter]) -> Void) {
        self.sockets = sockets + (asking.map { [$0.socket] } ?? [])
        self.asking = asking
        self.wakeup = wakeup
        self.initialTable = table
        self.publish = publish
    }

    /// Starts the thread; 0, or the error number when the system refuses one.
    func start() -> Int32 {
        let context = Unmanaged.passRetained(self)
        let result = pthread_create(&thread, nil, { context in
            Unmanaged<DiscoveryWorker>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context.toOpaque())
        if result != 0 { context.release() }
        return result
    }

    /// Wakes the thread and waits for it to end (unless called on it, e.g. from a synchronous
    /// executor: then it ends on its own once this call returns).
    func stop() {
        requests.withLock { stopping = true }
        wakeup.signal()
        if pthread_equal(pthread_self(), thread) != 0 {
            pthread_detach(thread)
        } else {
            pthread_join(thread, nil)
        }
    }

    /// Has the thread send the next round of asks at once (then every interval from it).
    func askNow() {
        requests.withLock { askRequested = true }
        wakeup.signal()
    }

    private func run() {
        Thread.current.name = "lw-discovery"
        var table = initialTable
        var buffer = [UInt8](repeating: 0, count: DiscoveryParser.maximumDatagramSize + 1)
        var descriptors = (sockets.map(\.descriptor) + [wakeup.readDescriptor]).map {
            pollfd(fd: $0, events: Int16(POLLIN), revents: 0)
        }
        var lastPublished = -TimeInterval.infinity
        var unpublished = false
        var nextAsk = asking.map { Self.now() + $0.interval }
        while true {
            let nextPublish = unpublished ? lastPublished + Self.publishInterval : nil
            let deadline = [table.nextExpiry, nextPublish, nextAsk].compactMap { $0 }.min()
            let timeout = deadline.map(Self.milliseconds(until:)) ?? -1
            guard poll(&descriptors, nfds_t(descriptors.count), timeout) >= 0 || errno == EINTR else { return }
            if descriptors[sockets.count].revents != 0 {
                wakeup.drain()
                let (stop, ask) = requests.withLock { () -> (Bool, Bool) in
                    defer { askRequested = false }
                    return (stopping, askRequested)
                }
                if stop { return }
                if ask, nextAsk != nil { nextAsk = Self.now() }
            }
            for (index, socket) in sockets.enumerated() where descriptors[index].revents != 0 {
                for _ in 0..<Self.batch {
                    guard let (count, sender) = socket.receive(into: &buffer) else { break }
                    if let printer = DiscoveryParser.parse(Array(buffer[..<count]), sender: sender) {
                        unpublished = table.record(printer, at: Self.now()) || unpublished
                    }
                }
            }
            let now = Self.now()
            if let asking, let due = nextAsk, now >= due {
                asking.asks.forEach { _ = asking.socket.send($0) }
                nextAsk = now + asking.interval
            }
            unpublished = table.expire(at: now) || unpublished
            if unpublished, now >= lastPublished + Self.publishInterval {
                publish(table.printers)
                lastPublished = now
                unpublished = false
            }
        }
    }

    /// Monotonic seconds: a wall-clock jump must not forget (or keep) every printer at once.
    private static func now() -> TimeInterval {
        ProcessInfo.processInfo.systemUptime
    }

    private static func milliseconds(until deadline: TimeInterval) -> Int32 {
        Int32(clamping: Int(max(0, ((deadline - now()) * 1000).rounded(.up))))
    }
}
