import CMosquitto
import Foundation
import Glibc
import StreamKit

/// A TLS client connection through OpenSSL over a non-blocking `TCPStream`, every wait sliced so
/// a stop ends it and bounded by a deadline: what a Bambu printer's implicit FTPS speaks. A data
/// connection resumes its control connection's TLS session (`resuming:`), which the printer's
/// vsftpd demands (`require_ssl_reuse`: a data connection that does not resume is refused).
/// Like the printer's MQTT connection (`BambuConnection`), it encrypts without verifying: the
/// printer's certificate is signed by Bambu's own authority and named for its serial, so there is
/// nothing on this machine to check it against (PROTOCOLS.md §1, §4).
final class TLSStream: @unchecked Sendable {
    private let tcp: TCPStream
    private let context: OpaquePointer
    private let ssl: OpaquePointer
    /// How long one read, write or the handshake may wait for the peer.
    private let timeout: TimeInterval
    /// What interrupts a wait: the caller's stop while it wants one, none while it tidies up after it.
    var interrupt: StopSignal?

    /// Connects to `host:port` and completes the handshake within `timeout`, resuming `session`'s TLS
    /// session (on its OpenSSL context) when given.
    init(host: String, port: Int, timeout: TimeInterval, stop: StopSignal, resuming session: TLSStream? = nil) throws(StatusFailure) {
        OpenSSLLibrary.ready
        tcp = try TCPStream(host: host, port: port, timeout: timeout, stop: stop)
        self.timeout = timeout
        interrupt = stop
        if let shared = session?.context, SSL_CTX_up_ref(shared) == 1 {
            context = shared
        } else if let made = SSL_CTX_new(TLS_client_method()) {
            SSL_CTX_set_verify(made, SSL_VERIFY_NONE, nil)
            context = made
        } else {
            throw .protocolError(tr("the TLS handshake failed"))
        }
        guard let made = SSL_new(context) else {
            SSL_CTX_free(context)
            throw .protocolError(tr("the TLS handshake failed"))
        }
        ssl = made
        SSL_set_fd(ssl, tcp.descriptor)
        if let earlier = session, let saved = SSL_get1_session(earlier.ssl) {
            SSL_set_session(ssl, saved)
            SSL_SESSION_free(saved)
        }
        _ = try drive(tr("the TLS handshake failed")) { SSL_connect(ssl) }
    }

    deinit {
        SSL_free(ssl)
        SSL_CTX_free(context)
    }

    /// Whether the handshake resumed the session it was given.
    var resumedSession: Bool { SSL_session_reused(ssl) == 1 }

    /// Writes all of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) throws(StatusFailure) {
        var offset = 0
        while offset < bytes.count {
            let chunk = Int32(min(bytes.count - offset, Int(Int32.max)))
            offset += Int(try drive(tr("the printer closed the connection")) { SSL_write(ssl, bytes.baseAddress! + offset, chunk) })
        }
    }

    /// Reads what arrives into `buffer`: how many bytes, 0 once the peer closed the connection.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(StatusFailure) -> Int {
        Int(try drive(tr("the printer closed the connection")) { SSL_read(ssl, buffer.baseAddress, Int32(buffer.count)) })
    }

    /// Says goodbye (TLS's close_notify), without waiting for the peer's.
    func close() {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
    }

    /// Says goodbye and waits (up to the timeout) until the peer closed too: what ends an upload.
    /// Closing at once could reset the connection, its last bytes lost with it, when the peer sent
    /// something still unread (TLS 1.3's session tickets).
    func finish() {
        close()
        Glibc.shutdown(tcp.descriptor, Int32(SHUT_WR))
        let scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { scratch.deallocate() }
        while let count = try? read(into: scratch), count > 0 {}
    }

    /// Runs `operation` until it succeeds, waiting in slices for the socket whenever OpenSSL wants
    /// it readable or writable; 0 when the peer closed the connection; `failure` when TLS failed.
    private func drive(_ failure: @autoclosure () -> String, _ operation: () -> Int32) throws(StatusFailure) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            ERR_clear_error()
            let result = operation()
            if result > 0 { return result }
            let events: Int16
            switch SSL_get_error(ssl, result) {
            case SSL_ERROR_WANT_READ: events = Int16(POLLIN)
            case SSL_ERROR_WANT_WRITE: events = Int16(POLLOUT)
            case SSL_ERROR_ZERO_RETURN: return 0
            // An end without TLS's goodbye: the connection is over all the same.
            case SSL_ERROR_SYSCALL where result == 0 && ERR_peek_error() == 0: return 0
            default: throw .protocolError(failure())
            }
            while true {
                // The caller sees its own stop and says so: this detail is never shown.
                if interrupt?.isStopped == true { throw .protocolError("stopped") }
                let left = deadline.timeIntervalSinceNow
                guard left > 0 else { throw .timeout }
                var entry = pollfd(fd: tcp.descriptor, events: events, revents: 0)
                if poll(&entry, 1, Int32(min(left, TCPStream.slice) * 1000)) > 0 { break }
            }
        }
    }
}
