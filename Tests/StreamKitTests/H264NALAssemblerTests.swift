import CFFmpeg
@testable import StreamKit
import XCTest

/// The rules `H264NALAssembler` completes NAL units by, on packets shaped as FFmpeg's RTP
/// depacketiser writes them (a first fragment: start code, NAL header, share; later fragments: the
/// share alone), and `H264NALUnits` on the slice headers it reads.
final class H264NALAssemblerTests: XCTestCase {
    private let share = 1000  // the payloader's fragment size in these tests

    func testASplitNALUnitIsCompleteAtItsFirstShortFragment() throws {
        let assembler = H264NALAssembler()
        try add(first(fill: 1, nalType: 5), to: assembler)
        XCTAssertNil(take(from: assembler))
        try add(Array(repeating: 2, count: share), to: assembler)
        XCTAssertNil(take(from: assembler), "a full-sized fragment: more may follow")
        try add(Array(repeating: 3, count: 10), to: assembler)
        let nal = try XCTUnwrap(take(from: assembler), "the short fragment is the last")
        XCTAssertEqual(nal.count, 5 + share + share + 10)
        XCTAssertEqual(Array(nal.prefix(5)), [0, 0, 0, 1, 0x65])
        XCTAssertEqual(nal.last, 3)
    }

    func testAWholeNALUnitIsCompleteAtOnceOnceTheFragmentSizeIsKnown() throws {
        let assembler = H264NALAssembler()
        let small: [UInt8] = [0, 0, 0, 1, 0x41, 0x9A, 7, 7]
        try add(small, to: assembler)
        XCTAssertNil(take(from: assembler), "before any fragment the camera's fragment size is unknown")
        try add(first(fill: 1, nalType: 1), to: assembler)
        XCTAssertEqual(take(from: assembler), small, "the next NAL unit began")
        try add(Array(repeating: 2, count: 1), to: assembler)
        XCTAssertNotNil(take(from: assembler))
        try add(small, to: assembler)
        XCTAssertEqual(take(from: assembler), small, "not a full first fragment: whole")
    }

    func testACameraThatCutsOtherwiseIsWaitedFor() throws {
        let assembler = H264NALAssembler()
        try add(first(fill: 1, nalType: 1), to: assembler)
        try add(Array(repeating: 2, count: 400), to: assembler)
        XCTAssertNotNil(take(from: assembler))
        try add(Array(repeating: 9, count: 300), to: assembler)  // more of the NAL unit called complete
        XCTAssertTrue(assembler.waitsForNextNALUnit)
        try add(first(fill: 4, nalType: 1), to: assembler)
        try add(Array(repeating: 5, count: 10), to: assembler)
        XCTAssertNil(take(from: assembler), "complete only when the next one begins")
        try add([0, 0, 0, 1, 0x41, 0x9A], to: assembler)
        XCTAssertEqual(take(from: assembler)?.count, 5 + share + 10)
    }

    func testANALUnitLargerThanAnyPictureIsDropped() throws {
        let assembler = H264NALAssembler()
        try add(first(fill: 1, nalType: 5), to: assembler)
        for _ in 0...(FrameLimits.maximumBytes / share) { try add(Array(repeating: 2, count: share), to: assembler) }
        try add([0, 0, 0, 1, 0x41, 0x9A], to: assembler)
        XCTAssertEqual(take(from: assembler), [0, 0, 0, 1, 0x41, 0x9A], "the oversized unit is gone, the next is whole")
        XCTAssertNil(take(from: assembler))
    }

    func testSliceHeaders() {
        func slice(_ bytes: [UInt8]) -> H264NALUnits.Slice? { bytes.withUnsafeBufferPointer { H264NALUnits.firstSlice($0.baseAddress, count: $0.count) } }
        XCTAssertEqual(slice([0, 0, 0, 1, 0x65, 0x88, 0x84]), .init(startsPicture: true, isIDR: true))
        XCTAssertEqual(slice([0, 0, 0, 1, 0x65, 0x40, 0x84]), .init(startsPicture: false, isIDR: true))
        XCTAssertEqual(slice([0, 0, 0, 1, 0x41, 0x9A, 0x00]), .init(startsPicture: true, isIDR: false))
        XCTAssertEqual(slice([0, 0, 0, 1, 0x67, 0x42, 0, 0, 0, 1, 0x68, 0xCE, 0, 0, 1, 0x65, 0x88, 0x84]),
                       .init(startsPicture: true, isIDR: true), "parameter sets, then the slice")
        XCTAssertNil(slice([0, 0, 0, 1, 0x06, 0x05, 0x10]), "SEI only")
        XCTAssertNil(slice([0x12, 0x34, 0x56, 0x78, 0x9A]), "a fragment without a start code")
    }

    // MARK: -

    /// A first fragment: start code, NAL header (`nalType`, reference), `share` bytes of `fill`.
    private func first(fill: UInt8, nalType: UInt8) -> [UInt8] {
        [0, 0, 0, 1, 0x60 | nalType] + Array(repeating: fill, count: share)
    }

    private func add(_ bytes: [UInt8], to assembler: H264NALAssembler) throws {
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        try packet!.copyData(from: bytes)
        try assembler.add(packet!)
    }

    private func take(from assembler: H264NALAssembler) -> [UInt8]? {
        var packet = av_packet_alloc()
        defer { av_packet_free(&packet) }
        guard assembler.take(into: packet!) else { return nil }
        return Array(UnsafeBufferPointer(start: packet!.pointee.data, count: Int(packet!.pointee.size)))
    }
}
