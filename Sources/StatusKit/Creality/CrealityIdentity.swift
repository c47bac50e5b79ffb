import Foundation
import StreamKit

/// What a Creality printer says it is over its status websocket: `model` (a name such as "K1C" or
/// "CR-K1 Max", or on K2 firmware a board code such as "F008"), `modelVersion` ("Printer HW Ver:
/// F012; Printer SW Ver: …") and `webrtcSupport` (1 when its firmware streams the camera over
/// WebRTC) — the fields ha_creality_ws reads (utils.py `ModelDetection`) to choose a camera. The
/// printer dialog's Test Connection reads them once, so it can choose the printer's family itself.
public struct CrealityIdentity: Equatable, Sendable {
    public var model: String?
    public var modelVersion: String?
    public var webrtcSupport: Bool?

    /// The most characters of a model text kept (they are matched against known names, never shown).
    static let maximumText = 128

    public init(model: String? = nil, modelVersion: String? = nil, webrtcSupport: Bool? = nil) {
        self.model = model
        self.modelVersion = modelVersion
        self.webrtcSupport = webrtcSupport
    }

    /// Connects to the websocket at `host`:`port`, asks for the printer's parameters as Creality
    /// Print does, and answers with what its messages say of the model: as soon as one names it,
    /// else `wait` seconds after connecting with what came (nothing, from firmware that does not
    /// say). Fails as a status connection does — refused, timeout (also when no status came at
    /// all), a message that is not a printer's.
    public static func read(host: String, port: Int, wait: TimeInterval = 5, stop: StopSignal) throws(StatusFailure) -> CrealityIdentity {
        let socket = try WebSocketClient(host: host, port: port, timeout: CrealityConnection.connectTimeout, stop: stop)
        defer { socket.close() }
        socket.send(text: CrealityConnection.request("get", ["ReqPrinterPara": 1]))
        let deadline = Date().addingTimeInterval(wait)
        var identity = CrealityIdentity(), heardStatus = false
        while !stop.isStopped && Date() < deadline {
            for message in try socket.receive(waiting: min(0.25, max(0, deadline.timeIntervalSinceNow))) where message != CrealityConnection.ok {
                let object = try JSONValue.object(Data(message))
                if JSONValue.string(object["ModeCode"]) == "heart_beat" {
                    socket.send(text: "ok")
                    continue
                }
                heardStatus = true
                identity.take(object)
            }
            if identity.model != nil || identity.modelVersion != nil { return identity }
        }
        guard heardStatus else { throw .timeout }
        return identity
    }

    /// The fields of one message that say what the printer is (a later message's replace them).
    private mutating func take(_ message: [String: Any]) {
        if let text = JSONValue.string(message["model"]) { model = String(text.prefix(Self.maximumText)) }
        if let text = JSONValue.string(message["modelVersion"]) { modelVersion = String(text.prefix(Self.maximumText)) }
        if message["webrtcSupport"] != nil { webrtcSupport = JSONValue.bool(message["webrtcSupport"]) }
    }
}
