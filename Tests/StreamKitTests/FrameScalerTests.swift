import CFFmpeg
import CPixels
@testable import StreamKit
import XCTest

/// The shrink on the way to a view's size: the box filter's arithmetic, when it is chosen, and the
/// sizes and colours that come out of the whole conversion at each kind of step.
final class FrameScalerTests: XCTestCase {
    func testBoxShrinkIsTheRoundedMeanOfEachBlock() {
        var seed: UInt32 = 12345
        func nextByte() -> UInt8 {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: seed >> 24)
        }
        // Widths of 16 and more take the SSE2 loop, the rest of a row the portable one.
        for factor in [2, 4] {
            for width in [1, 7, 16, 17, 33, 70] {
                let height = 3, stride = width * factor + 5, outStride = width + 3
                var source = (0..<(stride * height * factor)).map { _ in nextByte() }
                for row in 0..<factor { for column in 0..<factor { source[row * stride + column] = 255 } }
                var output = [UInt8](repeating: 0, count: outStride * height)
                XCTAssertEqual(lw_box_shrink_plane(source, stride, &output, outStride, Int32(width), Int32(height), Int32(factor)), 0)
                for y in 0..<height {
                    for x in 0..<width {
                        var sum = factor * factor / 2
                        for row in 0..<factor { for column in 0..<factor { sum += Int(source[(y * factor + row) * stride + x * factor + column]) } }
                        XCTAssertEqual(Int(output[y * outStride + x]), sum / (factor * factor), "factor \(factor), width \(width), at (\(x), \(y))")
                    }
                }
                XCTAssertEqual(output[0], 255)
            }
        }
        var output = [UInt8](repeating: 0, count: 4)
        XCTAssertEqual(lw_box_shrink_plane([UInt8](repeating: 0, count: 36), 6, &output, 2, 2, 2, 3), -1, "only 2 and 4")
    }

    func testBoxFactorTakesTheLargestThatDividesTheFrameExactly() {
        func factor(_ width: Int, _ height: Int, to target: (Int, Int)) -> Int? {
            FrameScaler.boxFactor(sourceWidth: width, sourceHeight: height, to: PixelSize(width: target.0, height: target.1))
        }
        XCTAssertEqual(factor(1920, 1080, to: (480, 270)), 4)
        XCTAssertEqual(factor(1920, 1080, to: (240, 135)), 4)
        XCTAssertEqual(factor(1920, 1080, to: (600, 338)), 2)
        XCTAssertEqual(factor(1920, 1080, to: (960, 540)), 2)
        XCTAssertNil(factor(1920, 1080, to: (1280, 720)))
        XCTAssertEqual(factor(1280, 720, to: (320, 180)), 4)
        XCTAssertEqual(factor(1912, 1076, to: (478, 269)), 2, "1076 is no multiple of 8, but of 4")
        XCTAssertNil(factor(1918, 1080, to: (479, 270)), "a chroma column would be left half-covered")
    }

    func testEveryKindOfShrinkKeepsSizeAndColours() throws {
        let frame = try Self.whiteBlackRedFrame(width: 1920, height: 1080)
        var pointer: UnsafeMutablePointer<AVFrame>? = frame
        defer { av_frame_free(&pointer) }
        let scaler = FrameScaler()
        // Box ÷4; box ÷2 then bilinear; bilinear alone; box ÷4 then fast bilinear; no shrink.
        for size in [PixelSize(width: 480, height: 270), PixelSize(width: 600, height: 338), PixelSize(width: 1280, height: 720),
                     PixelSize(width: 200, height: 113), PixelSize(width: 1920, height: 1080)] {
            let converted = try scaler.convert(frame, to: size, sequence: 1)
            XCTAssertEqual(PixelSize(width: converted.width, height: converted.height), size)
            let checks: [(x: Double, y: Double, rgb: (Int, Int, Int))] = [(0.25, 0.3, (255, 255, 255)), (0.75, 0.3, (0, 0, 0)),
                                                                          (0.5, 0.9, (255, 0, 0))]
            for check in checks {
                let x = Int(check.x * Double(size.width)), y = Int(check.y * Double(size.height))
                let pixel = converted.rgb(x: x, y: y)
                let off = [abs(Int(pixel.r) - check.rgb.0), abs(Int(pixel.g) - check.rgb.1), abs(Int(pixel.b) - check.rgb.2)].max()!
                XCTAssertLessThanOrEqual(off, 6, "\(size.width)×\(size.height) at (\(x), \(y)) is \(pixel), expected \(check.rgb)")
            }
        }
    }

    /// A 4:2:0 frame (BT.601 limited range): white on the left half, black on the right, red across
    /// the bottom quarter.
    private static func whiteBlackRedFrame(width: Int, height: Int) throws -> UnsafeMutablePointer<AVFrame> {
        let frame = try XCTUnwrap(av_frame_alloc())
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        XCTAssertEqual(av_frame_get_buffer(frame, 0), 0)
        let planes = [(frame.pointee.data.0!, Int(frame.pointee.linesize.0), 1), (frame.pointee.data.1!, Int(frame.pointee.linesize.1), 2),
                      (frame.pointee.data.2!, Int(frame.pointee.linesize.2), 2)]
        for (plane, (data, stride, subsampling)) in planes.enumerated() {
            for y in 0..<(height / subsampling) {
                for x in 0..<(width / subsampling) {
                    let red = y * subsampling >= height * 3 / 4, white = x * subsampling < width / 2
                    let value: UInt8 = switch plane {
                    case 0: red ? 81 : (white ? 235 : 16)
                    case 1: red ? 90 : 128
                    default: red ? 240 : 128
                    }
                    data[y * stride + x] = value
                }
            }
        }
        return frame
    }
}
