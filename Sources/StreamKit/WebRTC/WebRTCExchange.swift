import CFFmpeg
import Foundation

/// The HTTP requests of one WebRTC signalling exchange (`WebRTCSignalling`), through `HTTPFetch`
/// (its size limit, TLS checks, no redirects for a body) and bound to the session's gate. What a
/// camera answers is only unwrapped here; `WebRTCDescription` checks it.
struct WebRTCExchange {
    let url: URL
    let secrets: [String]
    let gate: InterruptGate
    let timeout: TimeInterval

    /// The camera's answer to an offer, and (WHEP) the session to DELETE at the end.
    struct Answer {
        let sdp: String
        let session: URL?
    }

    /// Sends Layerwatch's `offer` as WHEP and go2rtc do (raw SDP), or in Creality's wrapping, and
    /// unwraps the answer.
    func trade(offer: String, style: WebRTCSignalling) throws(FFmpegError) -> Answer {
        guard style != .creality else {
            let json = (try? JSONSerialization.data(withJSONObject: ["type": "offer", "sdp": offer])) ?? Data()
            let answer = try send(HTTPRequest.Body(type: "plain/text", data: json.base64EncodedData()))
            guard let decoded = Data(base64Encoded: answer.body, options: .ignoreUnknownCharacters),
                  let sdp = Self.field("sdp", of: decoded) else {
                throw Self.violation(tr("the Creality camera did not answer the offer with a session description"))
            }
            return Answer(sdp: sdp, session: nil)
        }
        let answer = try send(HTTPRequest.Body(type: "application/sdp", data: Data(offer.utf8)))
        let session = style == .whep ? answer.location.flatMap(sameOrigin) : nil
        return Answer(sdp: try Self.text(answer.body), session: session)
    }

    /// camera-streamer: asks the camera for its offer.
    func requestOffer() throws(FFmpegError) -> (sdp: String, id: String) {
        let answer = try send(.json(Data(#"{"type":"request","iceServers":null}"#.utf8)))
        guard let sdp = Self.field("sdp", of: answer.body), let id = Self.field("id", of: answer.body) else {
            throw Self.violation(tr("the camera did not answer the request with an offer"))
        }
        return (sdp, id)
    }

    /// camera-streamer: sends Layerwatch's answer to the offer `id`.
    func sendAnswer(_ sdp: String, id: String) throws(FFmpegError) {
        let json = (try? JSONSerialization.data(withJSONObject: ["type": "answer", "id": id, "sdp": sdp])) ?? Data()
        _ = try send(.json(json))
    }

    /// One POST; any status but 2xx is the signalling refusing, quoted.
    private func send(_ body: HTTPRequest.Body) throws(FFmpegError) -> HTTPFetch.Answer {
        let answer: HTTPFetch.Answer
        do {
            answer = try HTTPFetch.send(url, method: "POST", body: body, secrets: secrets, timeout: timeout, interrupting: gate)
        } catch {
            if gate.deadlineExpired { throw FFmpegError(code: lw_averror(ETIMEDOUT), stage: .connect, failure: .timeout) }
            throw FFmpegError(code: lw_averror_exit(), stage: .connect, failure: error.failure)
        }
        switch answer.status {
        case 200..<300: return answer
        case 401, 403: throw FFmpegError(code: lw_averror_http_unauthorized(), stage: .open, failure: .authRejected)
        case 404: throw FFmpegError(code: lw_averror_http_not_found(), stage: .open, failure: .notFound)
        default:
            throw Self.violation(String(format: tr("the camera's WebRTC signalling answered HTTP %ld"), answer.status))
        }
    }

    /// A WHEP `Location` resolved against the endpoint; nil when it points at another origin (no
    /// request ever goes anywhere but the camera).
    private func sameOrigin(_ location: String) -> URL? {
        guard let resolved = URL(string: location, relativeTo: url)?.absoluteURL,
              URLOrigin(resolved) == URLOrigin(url) else { return nil }
        return resolved
    }

    /// A string field of a JSON object.
    private static func field(_ name: String, of data: Data) -> String? {
        ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?[name] as? String
    }

    private static func text(_ body: Data) throws(FFmpegError) -> String {
        guard let text = String(data: body, encoding: .utf8) else {
            throw violation(tr("the camera's WebRTC answer is not a session description"))
        }
        return text
    }

    private static func violation(_ detail: String) -> FFmpegError {
        .protocolViolation(detail, stage: .open)
    }
}
