import StreamKit
import XCTest

final class RedactorTests: XCTestCase {
    func testMasksKnownSecretsAnywhere() {
        let redactor = Redactor(secrets: ["12345678", "p@ss word"])
        XCTAssertEqual(redactor.redact("auth failed for code 12345678"), "auth failed for code ***")
        XCTAssertEqual(redactor.redact("user bblp pass p%40ss%20word"), "user bblp pass ***")
        XCTAssertEqual(redactor.redact("nothing secret"), "nothing secret")
    }

    func testBambuAccessCodeIsMaskedInDescriptionAndText() throws {
        let source = try StreamSource.parse("bambu-jpeg://192.168.1.9?code=Ab12Cd34")
        XCTAssertEqual(source.secrets, ["Ab12Cd34"])
        XCTAssertEqual(source.description, "bambu-jpeg://192.168.1.9:6000?code=***")
        XCTAssertEqual(try StreamSource.parse("bambu-jpeg://[fe80::1]:6001?code=a%20b").description,
                       "bambu-jpeg://[fe80::1]:6001?code=***")
        let redactor = Redactor(secrets: source.secrets)
        XCTAssertEqual(redactor.redact("printer said no to Ab12Cd34"), "printer said no to ***")
    }

    func testMasksAnyURLPassword() {
        XCTAssertEqual(Redactor.scrubUserInfo("open rtsps://bblp:zz9@1.2.3.4:322/x failed"),
                       "open rtsps://bblp:***@1.2.3.4:322/x failed")
        XCTAssertEqual(Redactor.scrubUserInfo("http://user@host/x"), "http://user@host/x")
    }
}

final class QuerySecretRedactionTests: XCTestCase {
    func testCredentialQueryParametersAreMasked() {
        XCTAssertEqual(Redactor.scrubQueryCodes("http://cam/snap.cgi?user=admin&pwd=S3cr&t=1"),
                       "http://cam/snap.cgi?user=admin&pwd=***&t=1")
        XCTAssertEqual(Redactor.scrubQueryCodes("rtsp://cam/live?Password=a%20b;token=T0k#frag"),
                       "rtsp://cam/live?Password=***;token=***#frag")
        for name in ["pass", "passwd", "key", "api_key", "apikey", "auth", "secret", "access_token", "code"] {
            XCTAssertEqual(Redactor.scrubQueryCodes("http://h/?\(name)=v4lue&x=1"), "http://h/?\(name)=***&x=1", name)
        }
        XCTAssertEqual(Redactor.scrubQueryCodes("http://h/?action=stream&keyframe=1&monkey=2"),
                       "http://h/?action=stream&keyframe=1&monkey=2", "only whole parameter names")
    }

    func testAGenericCamerasQueryPasswordIsMaskedInItsDescription() throws {
        let source = try StreamSource.parse("http://192.168.1.40/cgi-bin/mjpg?user=admin&pwd=Hunter22&api_key=K3y")
        XCTAssertEqual(source.description, "http://192.168.1.40/cgi-bin/mjpg?user=admin&pwd=***&api_key=***")
        XCTAssertEqual(Redactor(secrets: []).redact("GET http://admin:pw@h/x?token=abc failed"),
                       "GET http://admin:***@h/x?token=*** failed")
    }

    func testAQuerySecretIsMaskedWhereverItsValueAppearsAlone() throws {
        let source = try StreamSource.parse("http://192.168.1.40/mjpg?user=admin&pwd=Hunter22&keyframe=1")
        XCTAssertEqual(source.secrets, ["Hunter22"], "the password parameter, not every parameter")
        let redactor = Redactor(secrets: source.secrets)
        XCTAssertEqual(redactor.redact("auth failed for user admin with Hunter22"), "auth failed for user admin with ***")
    }
}

final class ShortQuerySecretTests: XCTestCase {
    func testShortQueryValuesAreMaskedOnlyInTheirURL() throws {
        let source = try StreamSource.parse("http://192.168.1.40/mjpg?auth=1&key=0&pwd=Hunter22")
        XCTAssertEqual(source.description, "http://192.168.1.40/mjpg?auth=***&key=***&pwd=***")
        let redactor = Redactor(secrets: source.secrets)
        XCTAssertEqual(redactor.redact("frame 1 of 10 at 100 ms, 0 lost; pwd Hunter22"),
                       "frame 1 of 10 at 100 ms, 0 lost; pwd ***", "1 and 0 stay; the long secret goes")
        XCTAssertEqual(redactor.redact("GET http://192.168.1.40/mjpg?auth=1&key=0 failed"),
                       "GET http://192.168.1.40/mjpg?auth=***&key=*** failed")
        XCTAssertEqual(Redactor(secrets: ["abc", "abcd"]).redact("abc abcd"), "abc ***", "four characters are masked")
    }
}
