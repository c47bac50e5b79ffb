import StreamKit
import TestSupport
import XCTest

/// Generic https:// cameras are verified as a browser would: the certificate must chain to a trusted
/// authority and name the host. Against a real loopback TLS server with a self-signed certificate,
/// one from a test authority for another name, and one from that authority for 127.0.0.1.
final class HTTPSCertificateTests: XCTestCase {
    private func run(tls mode: String, trustTestAuthority: Bool) throws -> (TestServer, StreamSession, SessionRecorder) {
        let authority = try makeTemporaryDirectory().appendingPathComponent("ca.pem").path
        let server = try TestServer(script: "hostile_http_server.py", arguments: ["--tls", mode, "--ca-out", authority])
        var options = SessionOptions()
        options.backoff = Backoff(initial: 0.2, maximum: 1, jitter: 0)
        if trustTestAuthority { options.trustedCertificateAuthorities = authority }
        let source = try StreamSource.parse("https://maker:s3cret@127.0.0.1:\(server.port)/stream")
        let session = StreamSession(source: source, options: options)
        return (server, session, SessionRecorder(session: session))
    }

    private func assertUntrusted(tls mode: String, trustTestAuthority: Bool, detail expected: String) throws {
        let (server, session, recorder) = try run(tls: mode, trustTestAuthority: trustTestAuthority)
        defer { session.stop() }
        let failed = recorder.waitForState(timeout: 5) { $0.failure != nil }
        XCTAssertEqual(failed, .failed(.untrustedCertificate(expected)), "states: \(recorder.states)")
        XCTAssertTrue(failed?.failure?.userMessage.hasPrefix("The camera's certificate is not trusted: ") == true)
        // With a 0.2 s backoff a retry would have come several times over.
        Thread.sleep(forTimeInterval: 1)
        XCTAssertTrue(server.events(named: "request").isEmpty, "no request (and no password) went to the camera")
        XCTAssertEqual(recorder.frameCount, 0)
    }

    func testSelfSignedCertificateIsNotTrusted() throws {
        try assertUntrusted(tls: "self-signed", trustTestAuthority: false,
                            detail: "no certificate authority this computer trusts signed it")
    }

    func testCertificateFromUnknownAuthorityIsNotTrusted() throws {
        try assertUntrusted(tls: "ca-signed", trustTestAuthority: false,
                            detail: "no certificate authority this computer trusts signed it")
    }

    func testCertificateForAnotherNameIsNotTrusted() throws {
        try assertUntrusted(tls: "wrong-name", trustTestAuthority: true,
                            detail: "it was issued for another name than 127.0.0.1")
    }

    func testCertificateFromATrustedAuthorityForTheHostShowsTheStream() throws {
        let (server, session, recorder) = try run(tls: "ca-signed", trustTestAuthority: true)
        defer { server.stop() }
        defer { session.stop() }
        XCTAssertNotNil(recorder.waitForFrames(3, timeout: 10), "states: \(recorder.states)")
    }
}
