import Foundation
import StreamKit

/// Finds printers on the LAN by listening for the announcements they broadcast and asking those
/// that only answer (each family's that can be discovered, `FamilyDiscovery`: Bambu's SSDP heard,
/// Elegoo's and Flashforge's asked), so the user can pick a printer instead of typing its address.
/// It sends only its families' asks (`Configuration.asks`), from one socket of its own, at start and
/// every `askInterval`, to their broadcast or multicast addresses or to `askAddress`; Bambu
/// printers don't answer M-SEARCH, so nothing is asked of them. Updates — the whole list, sorted by
/// name — arrive on the caller's executor when a printer appears, changes or is forgotten: at most
/// four a second, and never more than one waiting on the executor (it carries the latest list), so
/// a flood of announcements can't queue work on the UI's main loop.
public final class PrinterDiscovery: @unchecked Sendable {
    public let configuration: Configuration
    private let executor: EventExecutor
    private let onUpdate: @Sendable ([DiscoveredPrinter]) -> Void
    private let lock = NSLock()
    private var worker: DiscoveryWorker?
    /// Bumped by every start and stop, so updates from an earlier run are dropped.
    private var generation = 0
    private var currentState: State = .stopped
    private var latest: [DiscoveredPrinter] = []
    /// An update is queued on the executor and will deliver `latest` when it runs.
    private var deliveryPending = false

    public init(configuration: Configuration = Configuration(), executor: EventExecutor,
                onUpdate: @escaping @Sendable ([DiscoveredPrinter]) -> Void) {
        self.configuration = configuration
        self.executor = executor
        self.onUpdate = onUpdate
    }

    deinit {
        stop()
    }

    public var state: State { lock.withLock { currentState } }

    /// The printers currently known (what the last update carried, or will carry).
    public var printers: [DiscoveredPrinter] { lock.withLock { latest } }

    /// Binds the endpoints, sends the first round of asks and starts listening; `state` tells the
    /// outcome when this returns (an ask that could not be sent is among `unavailable`). Does
    /// nothing while already listening.
    public func start() {
        lock.withLock {
            guard worker == nil else { return }
            var sockets: [DiscoverySocket] = []
            var failures: [BindFailure] = []
            for endpoint in configuration.endpoints {
                switch DiscoverySocket.open(address: configuration.bindAddress, port: endpoint.port,
                                            multicastGroup: endpoint.multicastGroup) {
                case .success(let socket): sockets.append(socket)
                case .failure(let failure): failures.append(failure)
                }
            }
            let listeningPorts = sockets.map(\.port)
            var asking: DiscoveryWorker.Asking?
            if !configuration.asks.isEmpty {
                switch DiscoverySocket.openForAsking(address: configuration.bindAddress) {
                case .success(let socket):
                    let asks = configuration.destinations
                    failures += asks.compactMap(socket.send)
                    asking = DiscoveryWorker.Asking(socket: socket, asks: asks, interval: configuration.askInterval)
                case .failure(let failure):
                    // Each ask is then unsent, for the same reason.
                    failures += configuration.destinations.map {
                        BindFailure(port: $0.port, code: failure.code, message: failure.message, askedAddress: $0.address)
                    }
                }
            }
            guard !sockets.isEmpty || asking != nil else {
                currentState = .failed(failures)
                return
            }
            generation += 1
            let generation = self.generation
            var code: Int32 = 0
            if let wakeup = DiscoveryWakeup() {
                let table = DiscoveryTable(expiry: configuration.expiry, addressHold: configuration.addressHold)
                let worker = DiscoveryWorker(sockets: sockets, asking: asking, wakeup: wakeup, table: table) { [weak self] printers in
                    self?.publish(printers, generation: generation)
                }
                code = worker.start()
                if code == 0 { self.worker = worker }
            } else {
                code = errno
            }
            guard code == 0 else {
                let message = "no listener thread: \(String(cString: strerror(code)))"
                currentState = .failed(listeningPorts.map { BindFailure(port: $0, code: code, message: message) } + failures)
                return
            }
            currentState = .listening(ports: listeningPorts, unavailable: failures)
        }
    }

    /// Sends the next round of asks now rather than when it is due (the Add Printer dialog opening
    /// while the welcome page's listener runs); nothing when not running or with nothing to ask.
    public func askNow() {
        lock.withLock { worker }?.askNow()
    }

    /// Stops listening: the sockets are closed and the thread has ended when this returns, and no
    /// further update is delivered. The list is emptied; `start()` may be called again.
    public func stop() {
        let worker = lock.withLock { () -> DiscoveryWorker? in
            defer {
                self.worker = nil
                generation += 1
                currentState = .stopped
                latest = []
            }
            return self.worker
        }
        worker?.stop()
    }

    private func publish(_ printers: [DiscoveredPrinter], generation: Int) {
        let queue = lock.withLock { () -> Bool in
            guard generation == self.generation else { return false }
            latest = printers
            defer { deliveryPending = true }
            return !deliveryPending
        }
        guard queue else { return }
        executor.execute { [weak self] in
            guard let self else { return }
            // Whatever is latest when this runs; nothing once stopped.
            let current = lock.withLock { () -> [DiscoveredPrinter]? in
                self.deliveryPending = false
                return self.worker == nil ? nil : self.latest
            }
            if let current { onUpdate(current) }
        }
    }
}
