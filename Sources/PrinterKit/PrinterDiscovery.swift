import Foundation
import StreamKit

/// Finds Bambu printers on the LAN by listening for the SSDP announcements they broadcast, so the
/// user can pick a printer instead of typing its address. Strictly passive: it binds, listens and
/// never sends a packet (printers don't answer M-SEARCH anyway). Updates — the whole list, sorted by
/// name — arrive on the caller's executor whenever a printer appears, changes or is forgotten.
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

    /// Binds the endpoints and starts listening; `state` tells the outcome when this returns.
    /// Does nothing while already listening.
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
            guard !sockets.isEmpty else {
                currentState = .failed(failures)
                return
            }
            generation += 1
            let generation = self.generation
            var code: Int32 = 0
            if let wakeup = DiscoveryWakeup() {
                let worker = DiscoveryWorker(sockets: sockets, wakeup: wakeup, expiry: configuration.expiry) { [weak self] printers in
                    self?.publish(printers, generation: generation)
                }
                code = worker.start()
                if code == 0 { self.worker = worker }
            } else {
                code = errno
            }
            guard code == 0 else {
                let message = "no listener thread: \(String(cString: strerror(code)))"
                currentState = .failed(sockets.map { BindFailure(port: $0.port, code: code, message: message) } + failures)
                return
            }
            currentState = .listening(ports: sockets.map(\.port), unavailable: failures)
        }
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
        let current = lock.withLock { () -> Bool in
            guard generation == self.generation else { return false }
            latest = printers
            return true
        }
        guard current else { return }
        executor.execute { [weak self] in
            guard let self, self.lock.withLock({ generation == self.generation }) else { return }
            self.onUpdate(printers)
        }
    }
}
