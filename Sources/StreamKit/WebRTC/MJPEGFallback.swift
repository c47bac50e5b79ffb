import Foundation

/// A WebRTC camera's MJPEG fallback: camera-streamer (crowsnest's WebRTC) serves the same camera as
/// MJPEG at `/stream` beside its `/webrtc` signalling, and a network that lets the HTTP request
/// through but not WebRTC's UDP, or a build without WebRTC, still has that picture. The printer
/// keeps the fallback as a reference relative to the camera's URL (`stream`), so it holds no
/// password of its own (the URL's, in the keyring, serves both); it is played only on the camera's
/// own host.
extension StreamSource {
    /// This WebRTC source with its MJPEG fallback at `reference`, resolved against the signalling URL
    /// (`stream` beside `/webcam/webrtc` is `/webcam/stream`, with the URL's user information).
    /// Unchanged when this is not a WebRTC source, or the reference is not an http(s) URL on the
    /// camera's host.
    public func withMJPEGFallback(_ reference: String?) -> StreamSource {
        guard case .webrtc(let url, _) = self, let reference, !reference.isEmpty,
              let resolved = URL(string: reference, relativeTo: url)?.absoluteURL,
              let fallback = URLOrigin(resolved), fallback.isWeb, fallback.host == URLOrigin(url)?.host,
              case .http(let checked)? = try? StreamSource.parse(resolved.absoluteString) else { return self }
        return .webrtc(url, fallback: checked)
    }

    /// The source played when this one fails before its first picture: a WebRTC camera's MJPEG.
    var mjpegFallback: StreamSource? {
        guard case .webrtc(_, let fallback?) = self else { return nil }
        return .http(fallback)
    }
}
