import Foundation
@testable import StreamKit
import XCTest

/// HTTP Digest as `HTTPDigest` answers it: the RFC 2617 example's user, realm, password, nonce and
/// URI hashed without qop (the RFC 2069 form PrusaLink speaks; the expected response worked out
/// with Python's hashlib), the challenge read however a server quotes it, and what makes a request
/// worth sending again.
final class HTTPDigestTests: XCTestCase {
    func testTheAnswerHashesTheChallengeAndNeverCarriesThePassword() throws {
        let digest = HTTPDigest(user: "Mufasa", password: "Circle Of Life")
        XCTAssertNil(digest.authorization(method: "GET", uri: "/dir/index.html"), "nothing before a challenge")
        XCTAssertTrue(digest.accept([#"Digest realm="testrealm@host.com", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41""#],
                                    answered: false))
        let (name, value) = try XCTUnwrap(digest.authorization(method: "GET", uri: "/dir/index.html"))
        XCTAssertEqual(name, "Authorization")
        XCTAssertTrue(value.hasPrefix("Digest "), value)
        XCTAssertTrue(value.contains(#"response="670fd8c2df070c60b045671b8b24ff02""#), value)
        XCTAssertTrue(value.contains(#"opaque="5ccc069c403ebaf9f0171e9517f40e41""#), value)
        XCTAssertTrue(value.contains(#"uri="/dir/index.html""#), value)
        XCTAssertFalse(value.contains("Circle Of Life"), value)
    }

    func testChallengesAreReadAsServersQuoteThem() {
        let quoted = HTTPDigest.challenge(#"DIGEST realm="Printer \"API\", a", nonce="n1",stale=TRUE,algorithm=md5"#)
        XCTAssertEqual(quoted, HTTPDigest.Challenge(realm: #"Printer "API", a"#, nonce: "n1", opaque: nil, stale: true))
        XCTAssertNil(HTTPDigest.challenge(#"Basic realm="Printer API""#), "another scheme")
        XCTAssertNil(HTTPDigest.challenge(#"Digest realm="r""#), "no nonce")
        XCTAssertNil(HTTPDigest.challenge(#"Digest realm="r", nonce="n", algorithm=SHA-256"#), "not MD5")
        XCTAssertNil(HTTPDigest.challenge(#"Digest realm="r", nonce="\#(String(repeating: "x", count: 5000))""#), "a nonce too long")
        XCTAssertNil(HTTPDigest.challenge(#"Digest realm="unterminated, nonce="n"#), "a quote never closed swallows the rest")
    }

    func testAStaleNonceIsWorthARetryAndAFreshRefusalIsNot() {
        let digest = HTTPDigest(user: "maker", password: "p")
        XCTAssertTrue(digest.accept([#"Digest realm="Printer API", nonce="a""#], answered: false), "the first challenge")
        XCTAssertFalse(digest.accept([#"Digest realm="Printer API", nonce="b""#], answered: true), "a fresh nonce refused: wrong password")
        XCTAssertTrue(digest.accept([#"Digest realm="Printer API", nonce="c", stale=true"#], answered: true), "only the nonce expired")
        XCTAssertFalse(digest.accept([], answered: false), "no Digest, and no key header to fall back to")

        let withKey = HTTPDigest(user: "maker", password: "p", keyHeader: "X-Api-Key")
        XCTAssertTrue(withKey.accept([#"Basic realm="x""#], answered: false), "no Digest offered: try the key once")
        XCTAssertEqual(withKey.authorization(method: "GET", uri: "/")?.0, "X-Api-Key")
        XCTAssertFalse(withKey.accept([], answered: true), "the key refused: wrong password")
    }
}
