import Foundation

/// Tunables of a session. The defaults are what a printer camera needs; tests shorten them.
public struct SessionOptions: Sendable {
    /// Longest time from starting a connection to its first decoded frame (a silent host fails after this).
    public var connectTimeout: TimeInterval = 5
    /// Longest gap between packets of a live stream before it counts as stalled and is reconnected.
    /// Neither this nor `connectTimeout` goes below what a source's frame rate needs: Bambu P1/A1
    /// cameras (a frame every 1–2 s) always get at least 4 s.
    public var stallTimeout: TimeInterval = 5
    /// Reconnect delays: `initial`, doubled each attempt, capped at `maximum`, with ±`jitter` spread.
    public var backoff = Backoff()
    /// How often a JPEG snapshot URL is fetched again.
    public var snapshotInterval: TimeInterval = 1
    /// Decoder threads (slice threading only, so no frames of latency are added).
    public var decoderThreads: Int = 2
    /// Skip deblocking while every visible view is small (`SmallViewDeblocking`); the bench turns it
    /// off to measure what it saves.
    public var skipsDeblockingForSmallViews = true
    /// PEM file of the certificate authorities an https:// camera's certificate must chain to. Nil
    /// means the system's trust store, as GnuTLS finds it (`gnutls_certificate_set_x509_system_trust`);
    /// tests set a test authority of their own. (Bambu printers' self-signed certificates are never
    /// verified: there is nothing to verify them against.)
    public var trustedCertificateAuthorities: String? = nil

    public init() {}
}

extension SessionOptions {
    /// How long `source` may take from the start of a connection to its first packet.
    func connectDeadline(for source: StreamSource) -> TimeInterval {
        max(connectTimeout, source.minimumDeadline)
    }

    /// How long `source` may stay silent once live before it counts as stalled.
    func stallDeadline(for source: StreamSource) -> TimeInterval {
        max(stallTimeout, source.minimumDeadline)
    }

    /// FFmpeg's own socket timeout in µs, for its `timeout` option: a backstop set beyond both
    /// deadlines, so the interrupt gate always ends a stall first and it is classified as a timeout.
    func socketTimeoutMicroseconds(for source: StreamSource) -> String {
        String(Int((max(connectDeadline(for: source), stallDeadline(for: source)) + 2) * 1_000_000))
    }
}
