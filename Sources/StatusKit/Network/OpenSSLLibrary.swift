import CMosquitto

/// OpenSSL set up once for the process, before its first use (libmosquitto's TLS), without its
/// exit-time clean-up: a status connection's thread may still be inside OpenSSL when a
/// command-line run returns, and the clean-up would free what it is using (a `layerwatch pause
/// creality://…` crashed so in CI, when the Creality handshake still took its SHA-1 from OpenSSL).
enum OpenSSLLibrary {
    static let ready: Void = {
        _ = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
    }()
}
