import Foundation
import StreamKit

/// An Elegoo Centauri Carbon's status over SDCP V3, the websocket at `ws://HOST:3030/websocket`
/// (../shared/PROTOCOLS.md §11; the SDCP V3.0.0 specification; WalkerFrederick/sdcp-centauri-carbon).
/// No login. At connect it asks for the status at once (Cmd 0) and turns the camera's video on
/// (Cmd 386), which the printer's MJPEG stream on port 3031 waits for; then the printer pushes its
/// status about once a second (`ElegooReport` reads it). A client silent for about 60 s is dropped
/// by the printer: the text `ping` (answered `pong`) goes every `pingEvery` seconds. Start (128, a
/// file `ElegooUpload` stored), pause (129), stop (130), continue (131) and the light (403) are
/// answered with an `Ack`, a non-zero one a
/// refusal said in words (`ElegooRequests.Answer`). The printer takes about four connections in
/// all: this is the only one a printer's status and camera use, whatever shows them.
final class ElegooConnection: StatusConnection, @unchecked Sendable {
    /// The websocket's path on the printer.
    static let path = "/websocket"
    /// How long the TCP connect and the handshake may take together.
    static let connectTimeout: TimeInterval = 10
    /// The most commands waiting for their answer; an older one is dropped (the monitor times it out).
    static let maximumPending = 8
    /// The longest MainboardID kept (the printer's is 32 hex digits).
    static let maximumMainboard = 64

    private let host: String
    private let port: Int
    private let log: StatusLog
    /// The status asked again after a quiet spell (the printer pushes every second), the
    /// connection dead after a longer one.
    private let quietWatch: QuietWatch
    /// Seconds between the `ping`s that keep the printer from dropping a quiet client (it waits ~60 s).
    private let pingEvery: TimeInterval

    private let lock = NSLock()
    private var client: WebSocketClient?
    /// The MainboardID the printer gave, which its requests' topic names.
    private var mainboard = ""
    /// Commands sent and not yet answered: their RequestID, command and who waits.
    private var pending: [(id: String, command: Int, answer: @Sendable (CommandOutcome) -> Void)] = []

    init(host: String, port: Int, log: StatusLog, quietAfter: TimeInterval = 10, silenceLimit: TimeInterval = 25,
         pingEvery: TimeInterval = 20) {
        self.host = host
        self.port = port
        self.log = log
        quietWatch = QuietWatch(quietAfter: quietAfter, silenceLimit: silenceLimit)
        self.pingEvery = pingEvery
    }

    func run(stop: StopSignal, live: () -> Void, report: (PrinterStatus) -> Void) throws(StatusFailure) {
        let socket = try WebSocketClient(host: host, port: port, path: Self.path, timeout: Self.connectTimeout, stop: stop)
        lock.withLock { client = socket }
        defer {
            lock.withLock {
                client = nil
                pending.removeAll()
            }
            socket.close()
        }
        live()
        socket.send(text: request(.status))
        socket.send(text: request(.video, data: ["Enable": 1]))
        var merged = ElegooReport()
        var pinged = Date(), quiet = quietWatch
        while !stop.isStopped {
            let messages = try socket.receive(waiting: 1)
            try quiet.check(lastHeard: socket.lastHeard) { socket.send(text: request(.status)) }
            if Date().timeIntervalSince(pinged) >= pingEvery {
                pinged = Date()
                socket.send(text: "ping")
            }
            var changed = false
            for message in messages where message != Self.pong {
                guard let object = WebSocketJSON.object(message, log: log) else { continue }
                learnMainboard(object)
                if merged.merge(object) {
                    changed = true
                } else if let answer = ElegooRequests.Answer(object) {
                    answered(answer)
                }
            }
            if changed && !merged.isEmpty && !stop.isStopped { report(merged.status) }
        }
    }

    func setChamberLight(_ on: Bool) {
        guard let client = lock.withLock({ client }) else { return }
        client.send(text: request(.light, data: ElegooRequests.light(on)))
    }

    func send(_ command: PrintCommand, answer: @escaping @Sendable (CommandOutcome) -> Void) {
        let sdcp: ElegooRequests.Command
        var data: [String: Any] = [:]
        switch command {
        case .pause: sdcp = .pause
        case .resume: sdcp = .resume
        case .stop: sdcp = .stop
        case .speed: return answer(.refused(tr("Elegoo printers have no speed profiles")))
        case .printFile(let name, _):
            sdcp = .start
            data = ElegooRequests.start(name)
        }
        let id = ElegooRequests.newID()
        let text: String? = lock.withLock {
            guard client != nil else { return nil }
            pending.append((id, sdcp.rawValue, answer))
            if pending.count > Self.maximumPending { pending.removeFirst() }
            return ElegooRequests.request(sdcp, data: data, id: id, mainboard: mainboard)
        }
        guard let text, let client = lock.withLock({ client }) else { return answer(.notConnected) }
        client.send(text: text)
    }

    func interrupt() {
        lock.withLock { client }?.wakeUp()
    }

    /// `command` as a request with a new RequestID to the printer's MainboardID.
    private func request(_ command: ElegooRequests.Command, data: [String: Any] = [:]) -> String {
        ElegooRequests.request(command, data: data, id: ElegooRequests.newID(), mainboard: lock.withLock { mainboard })
    }

    /// Keeps the MainboardID a message names (a status's, or an answer's within its `Data`).
    private func learnMainboard(_ message: [String: Any]) {
        let named = JSONValue.string(message["MainboardID"]) ?? JSONValue.string((message["Data"] as? [String: Any])?["MainboardID"])
        guard let named, Self.isMainboard(named) else { return }
        lock.withLock { mainboard = named }
    }

    /// Hands `answer` to the command it answers: the one with its RequestID, else the oldest of its command.
    private func answered(_ answer: ElegooRequests.Answer) {
        let waiting: (@Sendable (CommandOutcome) -> Void)? = lock.withLock {
            guard let index = pending.firstIndex(where: { $0.id == answer.requestID })
                ?? pending.firstIndex(where: { $0.command == answer.command }) else { return nil }
            return pending.remove(at: index).answer
        }
        waiting?(answer.outcome)
    }

    /// The printer's answer to `ping`, which carries no status.
    static let pong = Array("pong".utf8)

    /// Connects to the printer at `endpoint`, turns its camera's video on and answers with the
    /// `VideoUrl` it gives (with its scheme), within `wait` seconds; nil when it refused or did
    /// not say. Fails as a status connection does.
    static func videoURL(at endpoint: StatusEndpoint, wait: TimeInterval = 5, stop: StopSignal?) throws(StatusFailure) -> String? {
        try asking(endpoint, wait: wait, stop: stop) { ask throws(StatusFailure) in
            guard let answer = try ask(.video, ["Enable": 1]) else { return nil }
            return answer.ack == 0 || answer.ack == nil ? answer.videoURL : nil
        }
    }

    /// One command asked on a short connection, and its answer (nil when none came in time).
    typealias Ask = (_ command: Command, _ data: [String: Any]) throws(StatusFailure) -> ElegooRequests.Answer?

    /// Opens a connection of its own to the printer at `endpoint`, for what is asked once without
    /// the status connection, and hands `body` a way to ask it one command at a time, each answer
    /// (the one with its RequestID) waited for up to `wait` seconds; closed when `body` returns.
    /// The MainboardID an answer names is the next request's.
    static func asking<Result>(_ endpoint: StatusEndpoint, wait: TimeInterval, stop: StopSignal?,
                               _ body: (Ask) throws(StatusFailure) -> Result) throws(StatusFailure) -> Result {
        let stop = stop ?? StopSignal()
        let log = StatusLog(endpoint: endpoint)
        let socket = try WebSocketClient(host: endpoint.host, port: endpoint.port, path: path, timeout: connectTimeout, stop: stop)
        defer { socket.close() }
        var mainboard = ""
        return try body { command, data throws(StatusFailure) in
            let id = ElegooRequests.newID()
            socket.send(text: ElegooRequests.request(command, data: data, id: id, mainboard: mainboard))
            let deadline = Date().addingTimeInterval(wait)
            while !stop.isStopped && Date() < deadline {
                for message in try socket.receive(waiting: min(0.25, max(0, deadline.timeIntervalSinceNow))) where message != pong {
                    guard let object = WebSocketJSON.object(message, log: log), let answer = ElegooRequests.Answer(object),
                          answer.requestID == id || (answer.requestID == nil && answer.command == command.rawValue) else { continue }
                    if let named = JSONValue.string((object["Data"] as? [String: Any])?["MainboardID"]), Self.isMainboard(named) {
                        mainboard = named
                    }
                    return answer
                }
            }
            return nil
        }
    }

    /// Whether `named` can be a MainboardID: letters and digits, not too long.
    static func isMainboard(_ named: String) -> Bool {
        !named.isEmpty && named.count <= maximumMainboard && named.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    typealias Command = ElegooRequests.Command
}
