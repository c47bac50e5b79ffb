import PrinterKit
import XCTest

/// What people paste into the address field, split into the address and the port: URLs (IPv6 in
/// brackets too), `host:port`, and the bare IPv6 address that stays whole.
final class TypedAddressTests: XCTestCase {
    func testURLsAndHostPortAreSplitIntoAddressAndPort() {
        let cases: [(String, String?)] = [
            ("http://127.0.0.1:5000/", "127.0.0.1 port 5000"),
            ("127.0.0.1:5000", "127.0.0.1 port 5000"),
            (" https://octopi.local/?tab=control ", "octopi.local"),
            ("http://voron.local:7125/server/info", "voron.local port 7125"),
            ("http://admin:secret@10.0.0.5:1984/#streams", "10.0.0.5 port 1984"),
            ("[::1]:7125", "::1 port 7125"),
            ("http://[::1]:5000/", "::1 port 5000"),
            ("http://[fe80::1]/", "fe80::1"),
            ("[::1]", "::1"),
            ("192.168.1.20/", "192.168.1.20"),
            ("192.168.1.20:", "192.168.1.20"),
            // Nothing to split: a plain address, a bare IPv6 address, an empty field.
            ("192.168.1.20", nil),
            ("::1", nil),
            ("fe80::1:7125", nil),
            ("", nil),
            // What follows is no port: left for validation to name.
            ("printer:abc", nil),
            ("[::1]x", nil),
            ("http://:5000/", nil),
        ]
        for (text, expected) in cases {
            let split = TypedAddress(splitting: text)
            XCTAssertEqual(split.map { $0.host + ($0.port.map { " port " + $0 } ?? "") }, expected, text)
        }
    }

    func testAPortLeftInTheAddressIsNamedNotLookedUp() {
        let draft = PrinterDraft(kind: .octoprint, name: "Prusa", host: "127.0.0.1:5000", accessCode: "k3y",
                                 cameras: [PrinterCamera(url: "http://127.0.0.1:8080/?action=stream")])
        guard case .failure(let problems) = draft.printers() else { return XCTFail("a port in the address was accepted") }
        XCTAssertEqual(problems[.host], "\"127.0.0.1:5000\" is not an IP address or host name.")
        var ipv6 = draft
        ipv6.host = "::1"
        XCTAssertEqual(try ipv6.validate().get().host, "::1", "an IPv6 address has several colons")
    }
}
