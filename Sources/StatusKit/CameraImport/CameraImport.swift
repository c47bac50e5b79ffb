import Foundation
import StreamKit

/// A camera a Klipper or OctoPrint host knows of, as Layerwatch would add it: the URL to play (nil
/// for a browser-only camera Layerwatch cannot play: Janus, HLS, jmuxer, an iframe), and how it is mounted.
public struct ImportedCamera: Equatable, Sendable {
    public var name: String
    /// What the host calls the stream (Moonraker's `service`, `mjpeg` for OctoPrint).
    public var service: String
    public var url: String?
    /// Where a WebRTC camera's MJPEG is, relative to `url` (camera-streamer's `stream` beside its
    /// `webrtc`), played when WebRTC fails; nil for other cameras.
    public var mjpegFallback: String?
    /// Clockwise degrees: 0, 90, 180 or 270.
    public var rotation: Int
    public var flipHorizontal: Bool
    public var flipVertical: Bool
    /// The camera's host when it is not the printer's own (a host may list any address), set by
    /// the import so the list can say so beside the URL.
    public var otherHost: String?
    /// Why nothing answered where the camera streams when the list was made (`CameraReachability`);
    /// nil when something did, or when it was not asked.
    public var unreachable: String?

    public init(name: String, service: String, url: String?, mjpegFallback: String? = nil, rotation: Int = 0,
                flipHorizontal: Bool = false, flipVertical: Bool = false) {
        self.name = name
        self.service = service
        self.url = url
        self.mjpegFallback = mjpegFallback
        self.rotation = rotation
        self.flipHorizontal = flipHorizontal
        self.flipVertical = flipVertical
    }

    /// True for a camera only a browser plays (Janus's WebRTC, HLS, jmuxer, an iframe).
    public var isBrowserOnly: Bool { url == nil }

    /// Why it cannot be added, in words for the list; nil when it can. A host's list may name
    /// anything, so only network cameras pass (`NetworkCamera`).
    public var refusal: String? {
        guard let url else { return tr("Only a web browser plays this camera") }
        return NetworkCamera.refusal(url)
    }
}

/// Asks a Moonraker or OctoPrint host which cameras it has (`/server/webcams/list`,
/// `/api/settings`), for the add dialog and `layerwatch cameras`.
public enum CameraImport {
    /// The cameras `endpoint` lists; Bambu and Creality printers have exactly their own and are not asked.
    public static func cameras(at endpoint: StatusEndpoint, stop: StopSignal? = nil) throws(StatusFailure) -> [ImportedCamera] {
        try endpoint.family.importCameras(at: endpoint, stop: stop).map { camera in
            var marked = camera
            if let host = camera.url.flatMap(NetworkCamera.host(of:)), host != endpoint.host.lowercased() { marked.otherHost = host }
            return marked
        }
    }

    /// The JSON object at `path`, a failure in status terms.
    static func object(_ api: HTTPStatusAPI, _ path: String, stop: StopSignal?) throws(StatusFailure) -> [String: Any] {
        do {
            return try api.object(path, stop: stop)
        } catch {
            throw StatusFailure(error.failure)
        }
    }

    /// One entry of Moonraker's webcam list. WebRTC services are played over WebRTC where Layerwatch
    /// speaks their signalling (camera-streamer, with its MJPEG as the fallback; MediaMTX's WHEP),
    /// else mapped to the same server's plain stream (go2rtc's MJPEG).
    static func moonrakerCamera(_ entry: [String: Any], web: URL) -> ImportedCamera? {
        guard JSONValue.bool(entry["enabled"]) ?? true else { return nil }
        let service = JSONValue.string(entry["service"]) ?? "mjpegstreamer"
        let stream = JSONValue.string(entry["stream_url"]).flatMap { URL(string: $0, relativeTo: web)?.absoluteURL }
        let snapshot = JSONValue.string(entry["snapshot_url"]).flatMap { URL(string: $0, relativeTo: web)?.absoluteURL }
        let rotation = PrinterNumber.int(entry["rotation"], in: PrinterNumber.degrees).map { (($0 % 360) + 360) % 360 / 90 * 90 } ?? 0
        let url = stream.flatMap { playableURL(service: service, stream: $0) }
        return ImportedCamera(name: JSONValue.string(entry["name"]) ?? tr("Camera"), service: service, url: url,
                              mjpegFallback: service == "webrtc-camerastreamer" && url != nil
                                  ? stream.flatMap { cameraStreamerMJPEG(stream: $0, snapshot: snapshot) } : nil,
                              rotation: rotation,
                              flipHorizontal: JSONValue.bool(entry["flip_horizontal"]) ?? false,
                              flipVertical: JSONValue.bool(entry["flip_vertical"]) ?? false)
    }

    /// The URL Layerwatch plays for a Moonraker camera service; nil for a browser-only kind (Janus,
    /// HLS, jmuxer, an iframe).
    static func playableURL(service: String, stream: URL) -> String? {
        guard var components = URLComponents(url: stream, resolvingAgainstBaseURL: true) else { return nil }
        // The path stays as the host wrote it, percent-encoded: decoded, a `%24{HOME}` or `%2F`
        // would become part of another URL's syntax.
        let path = components.percentEncodedPath
        switch service {
        case "webrtc-camerastreamer":
            // camera-streamer's own WebRTC signalling, at the stream URL (/webcam/webrtc).
            components.fragment = "format=camera-streamer"
            return components.url.map { "webrtc:\($0.absoluteString)" }
        case "webrtc-go2rtc":
            // go2rtc's page is …/webrtc.html?src=NAME (or stream.html); its MJPEG is …/api/stream.mjpeg?src=NAME.
            guard let source = components.percentEncodedQueryItems?.first(where: { $0.name == "src" })?.value else { return nil }
            let folder = path.range(of: "/", options: .backwards).map { String(path[..<$0.upperBound]) } ?? "/"
            components.percentEncodedPath = folder + "api/stream.mjpeg"
            components.percentEncodedQueryItems = [URLQueryItem(name: "src", value: source)]
            return components.url?.absoluteString
        case "webrtc-mediamtx":
            // MediaMTX serves WebRTC on :8889/NAME/ and WHEP at :8889/NAME/whep.
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            guard !base.isEmpty else { return nil }
            components.percentEncodedPath = base.hasSuffix("/whep") ? base : base + "/whep"
            components.query = nil
            return components.url.map { "webrtc:\($0.absoluteString)" }
        case "webrtc-janus", "hlsstream", "jmuxer-stream", "iframe":
            return nil
        default:
            return stream.absoluteString
        }
    }

    /// camera-streamer's MJPEG, relative to its WebRTC stream URL: `stream` beside a `…/webrtc`
    /// path (it serves `/stream` and `/webrtc` side by side, `/webcam/…` behind Mainsail's proxy),
    /// else `?action=stream` where its snapshot URL is `?action=snapshot` on the same host and port;
    /// nil when neither tells.
    static func cameraStreamerMJPEG(stream: URL, snapshot: URL?) -> String? {
        if stream.path.hasSuffix("/webrtc") { return "stream" }
        // Nothing but the path and the action is kept: no token of the snapshot's query goes to the file.
        guard let snapshot, let components = URLComponents(url: snapshot, resolvingAgainstBaseURL: true),
              components.host == stream.host, components.port == stream.port, components.scheme == stream.scheme,
              components.percentEncodedPath.hasPrefix("/"), !components.percentEncodedPath.hasPrefix("//"),
              components.queryItems?.contains(URLQueryItem(name: "action", value: "snapshot")) == true else { return nil }
        return components.percentEncodedPath + "?action=stream"
    }

    /// OctoPrint's `webcams[]` (1.9 and later) or, from older versions, the classic webcam block.
    /// OctoPrint's `rotate90` turns the picture a quarter counter-clockwise: 270° clockwise.
    static func octoprintCameras(_ webcam: [String: Any], base: URL) -> [ImportedCamera] {
        func camera(name: String, stream: String?, settings: [String: Any]) -> ImportedCamera? {
            guard let stream, !stream.isEmpty, let url = URL(string: stream, relativeTo: base)?.absoluteURL else { return nil }
            return ImportedCamera(name: name, service: "mjpeg", url: url.absoluteString,
                                  rotation: JSONValue.bool(settings["rotate90"]) == true ? 270 : 0,
                                  flipHorizontal: JSONValue.bool(settings["flipH"]) ?? false,
                                  flipVertical: JSONValue.bool(settings["flipV"]) ?? false)
        }
        if let list = webcam["webcams"] as? [[String: Any]], !list.isEmpty {
            return ListLimit.first(list, ListLimit.cameras, of: "cameras").compactMap { entry in
                let extras = entry["extras"] as? [String: Any] ?? [:]
                let name = JSONValue.string(entry["displayName"]) ?? JSONValue.string(entry["name"]) ?? tr("Camera")
                return camera(name: name, stream: JSONValue.string(extras["streamUrl"]) ?? JSONValue.string(webcam["streamUrl"]),
                              settings: entry)
            }
        }
        guard JSONValue.bool(webcam["webcamEnabled"]) ?? true else { return [] }
        return camera(name: tr("Camera"), stream: JSONValue.string(webcam["streamUrl"]), settings: webcam).map { [$0] } ?? []
    }
}
