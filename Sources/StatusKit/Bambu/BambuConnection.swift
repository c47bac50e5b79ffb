import CMosquitto
import Foundation
import StreamKit

/// A Bambu printer's LAN MQTT status: libmosquitto (Debian's, through `CMosquitto`) over TLS to the
/// printer's broker on port 8883, as `bblp` with the access code. It subscribes to the printer's
/// report topic, asks for everything once on connect (`pushall`; never on a timer: P1 printers
/// struggle with it), merges the partial reports P1 and A1 printers send, and sends `ledctrl` for
/// the chamber light and `print` commands (answered by the printer's echo of their sequence id).
/// libmosquitto runs in its threaded mode under the monitor's own loop: the loop
/// sleeps up to a second in `mosquitto_loop`, and a light request published from another thread
/// wakes it at once (libmosquitto writes to its internal socket pair).
final class BambuConnection: StatusConnection, @unchecked Sendable {
    private let host: String
    private let port: Int
    private let accessCode: String
    private let serial: String?
    private let log: StatusLog
    /// How long the TCP connect, TLS handshake and CONNACK may take together.
    static let connectTimeout: TimeInterval = 10
    /// MQTT keepalive: libmosquitto pings the broker and gives up on a silent one after 1.5× this.
    static let keepalive: Int32 = 20

    /// How long `mosquitto_loop` may sleep: a stop is seen within this; reports, pings and light
    /// requests wake it sooner.
    static let loopTimeout: Int32 = 1000

    /// The live client and the lights it switches, for `setChamberLight` and `send` on other
    /// threads (nil while not connected), the client from its creation on, for `interrupt`, and the
    /// commands waiting for their echo by sequence id, each with the `print.command` its echo must carry.
    private let lightLock = NSLock()
    private var client: (mosq: OpaquePointer, serial: String, nodes: [String])?
    private var created: OpaquePointer?
    private var answers: [String: (command: String, answer: @Sendable (CommandOutcome) -> Void)] = [:]
    /// The last command's sequence id: it starts anywhere (ids under 1000 are left to the printer's
    /// own apps' habits), so another client on the broker cannot tell the next one in advance.
    private var lastSequence = Int.random(in: 1_000..<1_000_000_000)

    init(host: String, port: Int, accessCode: String, serial: String?, log: StatusLog) {
        self.host = host
        self.port = port
        self.accessCode = accessCode
        self.serial = serial
        self.log = log
    }

    func setChamberLight(_ on: Bool) {
        lightLock.withLock {
            guard let client else { return }
            for node in client.nodes {
                publish(client.mosq, serial: client.serial, BambuRequests.light(node: node, on: on))
            }
        }
    }

    func send(_ command: PrintCommand, answer: @escaping @Sendable (CommandOutcome) -> Void) {
        let sent: Bool = lightLock.withLock {
            guard let client else { return false }
            lastSequence += 1
            let sequence = String(lastSequence)
            // At most a handful wait at once (one per click); an unanswered one is dropped when the
            // connection ends.
            answers[sequence] = (BambuRequests.name(of: command), answer)
            publish(client.mosq, serial: client.serial, BambuRequests.print(command, sequenceID: sequence))
            return true
        }
        if !sent { answer(.notConnected) }
    }

    /// Disconnects from another thread: libmosquitto (threaded) wakes the loop through its socket pair.
    func interrupt() {
        lightLock.withLock {
            if let created { mosquitto_disconnect(created) }
        }
    }

    func run(stop: StopSignal, live: () -> Void, report: (PrinterStatus) -> Void) throws(StatusFailure) {
        _ = Self.libraryReady
        let events = Events()
        guard let mosq = mosquitto_new(nil, true, Unmanaged.passUnretained(events).toOpaque()) else {
            throw .protocolError(tr("the MQTT client could not be created"))
        }
        defer {
            lightLock.withLock {
                client = nil
                created = nil
                answers.removeAll()
            }
            mosquitto_destroy(mosq)
        }
        try configure(mosq)
        lightLock.withLock { created = mosq }
        var reportTopic = ""
        let started = Date()
        var result = mosquitto_connect_async(mosq, host, Int32(port), Self.keepalive)
        if result != MOSQ_ERR_SUCCESS.rawValue { throw Self.failure(result, errno: errno) }
        guard try awaitTCP(mosquitto_socket(mosq), until: started.addingTimeInterval(Self.connectTimeout), stop: stop) else { return }
        var merged = BambuReport()
        var isLive = false
        while !stop.isStopped {
            result = mosquitto_loop(mosq, Self.loopTimeout, 1)
            let savedErrno = errno
            // Every report of one loop turn is merged, the status built once: a flood of reports
            // costs their parsing, not a status each.
            var merges = false
            defer {
                if merges {
                    let nodes = merged.lightNodes
                    lightLock.withLock { client?.nodes = nodes }
                    report(merged.status)
                }
            }
            for event in events.take() {
                switch event {
                case .connected(let code):
                    guard code == 0 else { throw Self.connackFailure(code) }
                    guard let serial = self.serial.flatMap({ $0.isEmpty ? nil : $0 }) ?? Self.certificateSerial(mosq) else {
                        throw .missingSerial
                    }
                    isLive = true
                    log.debug("connected")
                    reportTopic = "device/\(serial)/report"
                    mosquitto_subscribe(mosq, nil, reportTopic, 0)
                    publish(mosq, serial: serial, BambuRequests.pushAll)
                    lightLock.withLock { client = (mosq, serial, merged.lightNodes) }
                    live()
                case .message(let topic, let payload):
                    guard topic == reportTopic else {
                        log.debug("ignored a message on another topic (\(TerminalText.safe(String(topic.prefix(80)))))")
                        continue
                    }
                    if handle(payload, into: &merged) { merges = true }
                case .oversized(let topic, let length):
                    log.info("ignored a message of \(length) bytes on \(TerminalText.safe(String(topic.prefix(80)))): over the \(HTTPFetch.maximumBytes / 1_000_000) MB limit")
                case .disconnected(let code):
                    if code != 0 { throw isLive ? .protocolError(tr("the printer closed the connection")) : .refused }
                }
            }
            if result != MOSQ_ERR_SUCCESS.rawValue { throw Self.failure(result, errno: savedErrno) }
            if !isLive && Date().timeIntervalSince(started) > Self.connectTimeout { throw .timeout }
        }
        // A clean goodbye: DISCONNECT goes out with the next loop, then TLS's close.
        lightLock.withLock { client = nil }
        if mosquitto_disconnect(mosq) == MOSQ_ERR_SUCCESS.rawValue { _ = mosquitto_loop(mosq, 100, 1) }
    }

    /// Waits for the non-blocking TCP connect libmosquitto began, and says how it ended: without
    /// this a refused connection would leave `mosquitto_loop` spinning on a dead socket. False when
    /// stopped meanwhile.
    private func awaitTCP(_ socket: Int32, until deadline: Date, stop: StopSignal) throws(StatusFailure) -> Bool {
        guard socket >= 0 else { throw .refused }
        while !stop.isStopped {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { throw .timeout }
            var entry = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
            guard poll(&entry, 1, Int32(min(100, left * 1000))) > 0 else { continue }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length)
            if error != 0 { throw Self.failure(MOSQ_ERR_ERRNO.rawValue, errno: error) }
            // libmosquitto may already have written CONNECT and consumed the socket's error: a hung-up
            // socket that never connected was refused.
            if entry.revents & Int16(POLLHUP | POLLERR) != 0 { throw .refused }
            return true
        }
        return false
    }

    /// Merges one report, or hands a command's echo to whoever sent it; false (and a log line) for
    /// a message that is too large, not JSON, or has no status.
    private func handle(_ payload: Data, into merged: inout BambuReport) -> Bool {
        let object: [String: Any]
        do {
            object = try JSONValue.object(payload)
        } catch {
            log.info("ignored a report: \(error.userMessage)")
            return false
        }
        if let echo = BambuCommandAnswer(payload: object) {
            // An echo counts only with our id and our command: another command's echo carrying
            // the same id (another client's, or a hostile one) leaves ours waiting.
            let waiting: (@Sendable (CommandOutcome) -> Void)? = lightLock.withLock {
                guard answers[echo.sequenceID]?.command == echo.command else { return nil }
                return answers.removeValue(forKey: echo.sequenceID)?.answer
            }
            waiting?(echo.outcome)
            return false
        }
        return merged.merge(payload: object)
    }

    private func configure(_ mosq: OpaquePointer) throws(StatusFailure) {
        // Light requests are published from other threads: libmosquitto then takes its locks.
        mosquitto_threaded_set(mosq, true)
        mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, Int32(MQTT_PROTOCOL_V311))
        // The printer's certificate is signed by Bambu's own authority: as for the camera, TLS
        // encrypts but does not verify (SSL_VERIFY_NONE, no host name check).
        mosquitto_int_option(mosq, MOSQ_OPT_TLS_USE_OS_CERTS, 1)
        mosquitto_tls_opts_set(mosq, 0, nil, nil)
        mosquitto_tls_insecure_set(mosq, true)
        guard mosquitto_username_pw_set(mosq, "bblp", accessCode) == MOSQ_ERR_SUCCESS.rawValue else {
            throw .protocolError(tr("the access code cannot be sent"))
        }
        mosquitto_connect_callback_set(mosq) { _, user, code in
            Events.of(user).append(.connected(code))
        }
        mosquitto_disconnect_callback_set(mosq) { _, user, code in
            Events.of(user).append(.disconnected(code))
        }
        mosquitto_message_callback_set(mosq) { _, user, message in
            guard let message = message?.pointee else { return }
            let topic = message.topic.map { String(cString: $0) } ?? ""
            let length = Int(message.payloadlen)
            // The size cap comes before anything looks at the payload.
            guard length <= HTTPFetch.maximumBytes, let payload = message.payload else {
                Events.of(user).append(.oversized(topic, length))
                return
            }
            Events.of(user).append(.message(topic, Data(bytes: payload, count: length)))
        }
    }

    private func publish(_ mosq: OpaquePointer, serial: String, _ payload: String) {
        let bytes = Array(payload.utf8)
        mosquitto_publish(mosq, nil, "device/\(serial)/request", Int32(bytes.count), bytes, 0, false)
    }

    /// The serial number a Bambu printer puts in its certificate's common name, when the user gave
    /// none: letters and digits only, or nil.
    private static func certificateSerial(_ mosq: OpaquePointer) -> String? {
        var buffer = [CChar](repeating: 0, count: 128)
        guard lw_mosquitto_peer_common_name(mosq, &buffer, Int32(buffer.count)) > 0 else { return nil }
        let name = String(cString: buffer)
        guard !name.isEmpty, BambuSerial.isPlausible(name) else { return nil }
        return name
    }

    /// libmosquitto's one-time set-up (not thread-safe itself: a Swift static runs it once).
    private static let libraryReady: Void = {
        OpenSSLLibrary.ready
        mosquitto_lib_init()
    }()

    private static func connackFailure(_ code: Int32) -> StatusFailure {
        switch code {
        case 4, 5: return .authRejected
        case 3: return .protocolError(tr("the printer's MQTT server is unavailable"))
        default: return .protocolError(String(format: tr("the printer refused the MQTT connection (code %d)"), code))
        }
    }

    private static func failure(_ result: Int32, errno: Int32) -> StatusFailure {
        switch mosq_err_t(rawValue: result) {
        case MOSQ_ERR_ERRNO:
            switch errno {
            case ECONNREFUSED: return .refused
            case ETIMEDOUT, EHOSTUNREACH, ENETUNREACH, EHOSTDOWN: return .timeout
            case ECONNRESET, EPIPE: return .protocolError(tr("the printer closed the connection"))
            default: return .protocolError(String(cString: strerror(errno)))
            }
        case MOSQ_ERR_CONN_REFUSED, MOSQ_ERR_AUTH: return .authRejected
        case MOSQ_ERR_KEEPALIVE: return .timeout
        case MOSQ_ERR_EAI, MOSQ_ERR_LOOKUP: return .protocolError(tr("the printer's name could not be resolved"))
        case MOSQ_ERR_TLS, MOSQ_ERR_TLS_HANDSHAKE: return .protocolError(tr("the TLS handshake failed"))
        case MOSQ_ERR_CONN_LOST, MOSQ_ERR_NO_CONN: return .protocolError(tr("the printer closed the connection"))
        default: return .protocolError(String(cString: mosquitto_strerror(result)))
        }
    }

    /// What libmosquitto's callbacks saw during one `mosquitto_loop` call, read right after it.
    private final class Events {
        enum Event {
            case connected(Int32)
            case message(String, Data)
            case oversized(String, Int)
            case disconnected(Int32)
        }

        private var list: [Event] = []

        static func of(_ user: UnsafeMutableRawPointer?) -> Events {
            Unmanaged<Events>.fromOpaque(user!).takeUnretainedValue()
        }

        func append(_ event: Event) { list.append(event) }

        func take() -> [Event] {
            defer { list.removeAll() }
            return list
        }
    }
}
