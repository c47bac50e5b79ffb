import Foundation
import StreamKit

/// A Creality printer's status over the LAN websocket Creality Print reads, `ws://HOST:9999`
/// (../shared/PROTOCOLS.md §10; ha_creality_ws const.py `WS_PORT`; Erinell/Creality-K2-websocket
/// API.md; Connect3Dp Research/Creality/CrealityK1C.md). No login: the printer pushes JSON objects of the fields that
/// changed (`CrealityReport` merges them), and takes `{"method":"get"|"set","params":{…}}`
/// requests. Its heartbeat, `{"ModeCode":"heart_beat"}`, is answered with the text `ok`, and a
/// plain `ok` from it is no status (ha_creality_ws ws_client.py). Commands are `set` requests the
/// printer does not answer: `pause` 1 and 0 for pause and resume, `stop` 1, `lightSw` 1 or 0 for
/// the light (CrealityK1C.md "Commands", API.md "Switch LED"), `opGcodeFile` to print a file the
/// upload stored (`CrealityUpload`); `StatusMonitor` counts the state
/// they lead to in a later report as done, and says no answer after its timeout. A message that is
/// not a JSON object in UTF-8 (or nests too deep) is skipped and logged, as a bad MQTT report is: the
/// messages around it still count, and the connection stays.
final class CrealityConnection: StatusConnection, @unchecked Sendable {
    private let host: String
    private let port: Int
    private let log: StatusLog
    /// A `get` of the printer's parameters asks whether it is still there after `quietAfter`
    /// seconds without a frame, which is also the pace of the pings libsoup sends it
    /// (ha_creality_ws: a probe and a ping after 10 s); dead after `silenceLimit`, the ping
    /// unanswered too.
    private let quietWatch: QuietWatch
    /// How long the TCP connect and the handshake may take together.
    static let connectTimeout: TimeInterval = 10

    private let lock = NSLock()
    private var client: WebSocketClient?

    init(host: String, port: Int, log: StatusLog, quietAfter: TimeInterval = 10, silenceLimit: TimeInterval = 25) {
        self.host = host
        self.port = port
        self.log = log
        quietWatch = QuietWatch(quietAfter: quietAfter, silenceLimit: silenceLimit)
    }

    func run(stop: StopSignal, live: () -> Void, report: (PrinterStatus) -> Void) throws(StatusFailure) {
        let socket = try WebSocketClient(host: host, port: port, timeout: Self.connectTimeout, keepalive: quietWatch.quietAfter, stop: stop)
        lock.withLock { client = socket }
        defer {
            lock.withLock { client = nil }
            socket.close()
        }
        live()
        // What the web interface asks for (ha_creality_ws mirrors it): the printer's parameters.
        socket.send(text: Self.request("get", ["ReqPrinterPara": 1]))
        var merged = CrealityReport()
        var quiet = quietWatch
        while !stop.isStopped {
            let messages = try socket.receive(waiting: 1)
            try quiet.check(lastHeard: socket.lastHeard) { socket.send(text: Self.request("get", ["ReqPrinterPara": 1])) }
            var changed = false
            for message in messages where message != Self.ok {
                guard let object = WebSocketJSON.object(message, log: log) else { continue }
                if JSONValue.string(object["ModeCode"]) == "heart_beat" {
                    socket.send(text: "ok")
                    continue
                }
                merged.merge(object)
                changed = true
            }
            if changed && !merged.isEmpty && !stop.isStopped { report(merged.status) }
        }
    }

    func setChamberLight(_ on: Bool) {
        lock.withLock { client }?.send(text: Self.request("set", ["lightSw": on ? 1 : 0]))
    }

    func send(_ command: PrintCommand, answer: @escaping @Sendable (CommandOutcome) -> Void) {
        let params: [String: Any]
        switch command {
        case .pause: params = ["pause": 1]
        case .resume: params = ["pause": 0]
        case .stop: params = ["stop": 1]
        case .speed: return answer(.refused(tr("Creality printers have no speed profiles")))
        // `printprt:` and the file's path on the printer, as OrcaSlicer's CrealityPrint host starts a
        // file (`CrealityUpload`).
        case .printFile(let path, _): params = ["opGcodeFile": "printprt:" + path]
        }
        guard let client = lock.withLock({ client }) else { return answer(.notConnected) }
        client.send(text: Self.request("set", params))
    }

    func interrupt() {
        lock.withLock { client }?.wakeUp()
    }

    /// The printer's plain-text heartbeat answer, which carries no status.
    static let ok = Array("ok".utf8)

    /// `{"method":…,"params":{…}}` in one line.
    static func request(_ method: String, _ params: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: ["method": method, "params": params], options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
