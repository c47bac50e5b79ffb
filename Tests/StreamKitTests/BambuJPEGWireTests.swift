@testable import StreamKit
import XCTest

/// The bytes a Bambu P1/A1 camera and its client exchange (PROTOCOLS.md §2), checked without a socket.
final class BambuJPEGWireTests: XCTestCase {
    func testAuthPacketIsEightyBytesInTheDocumentedLayout() {
        let packet = BambuJPEGWire.authPacket(accessCode: "12345678")
        XCTAssertEqual(packet.count, 80)
        XCTAssertEqual(Array(packet[0..<16]), [0x40, 0, 0, 0, 0x00, 0x30, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                       "u32 LE 0x40, 0x3000, 0, 0")
        XCTAssertEqual(Array(packet[16..<48]), Array("bblp".utf8) + [UInt8](repeating: 0, count: 28))
        XCTAssertEqual(Array(packet[48..<80]), Array("12345678".utf8) + [UInt8](repeating: 0, count: 24))
    }

    func testAuthPacketHoldsAThirtyTwoByteCode() {
        let code = String(repeating: "x", count: 32)
        XCTAssertEqual(Array(BambuJPEGWire.authPacket(accessCode: code)[48..<80]), Array(code.utf8))
    }

    func testHeaderSizeIsReadFromAllFourLittleEndianBytes() throws {
        XCTAssertEqual(try BambuJPEGWire.payloadSize(header: header(size: 10990)), 10990)
        // 0x0070_0010: a client reading three bytes would see 0x10 (16); all four give 7 MiB + 16.
        XCTAssertEqual(try BambuJPEGWire.payloadSize(header: [0x10, 0x00, 0x70, 0x00] + header(size: 0)[4...]), 0x0070_0010)
        XCTAssertEqual(try BambuJPEGWire.payloadSize(header: header(size: 8 * 1024 * 1024)), 8 * 1024 * 1024)
    }

    func testSizesNoJPEGCanHaveAreProtocolViolations() {
        for size: UInt32 in [8 * 1024 * 1024 + 1, 100 * 1024 * 1024, .max, 0, 3] {
            XCTAssertThrowsError(try BambuJPEGWire.payloadSize(header: header(size: size)), "\(size)") { error in
                let detail = (error as? FFmpegError)?.detail
                XCTAssertTrue(detail?.contains("announced \(size) bytes") == true, String(describing: detail))
            }
        }
    }

    func testJPEGMarkers() {
        let jpeg: [UInt8] = [0xFF, 0xD8, 0x01, 0x02, 0xFF, 0xD9]
        jpeg.withUnsafeBytes {
            XCTAssertTrue(BambuJPEGWire.startsLikeJPEG($0))
            XCTAssertTrue(BambuJPEGWire.endsLikeJPEG($0))
        }
        [UInt8]([0x00, 0xD8, 0xFF, 0xD8]).withUnsafeBytes {
            XCTAssertFalse(BambuJPEGWire.startsLikeJPEG($0))
            XCTAssertFalse(BambuJPEGWire.endsLikeJPEG($0))
        }
    }

    private func header(size: UInt32) -> [UInt8] {
        withUnsafeBytes(of: size.littleEndian, Array.init) + [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]
    }
}
