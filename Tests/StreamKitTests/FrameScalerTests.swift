import CFFmpeg
import CPixels
@testable import StreamKit
import XCTest

/// The conversion on the way to a view: the box filter's, the bilinear shrink's and the colour
/// converter's arithmetic, when the box filter is chosen, and the sizes and colours that come out
/// of the whole conversion at each kind of step, for each colour matrix and range.
final class FrameScalerTests: XCTestCase {
    func testBoxShrinkIsTheRoundedMeanOfEachBlock() {
        var random = TestBytes(seed: 12345)
        // Widths of 16 and more take the SSE2 loop, the rest of a row the portable one.
        for factor in [2, 4] {
            for width in [1, 7, 16, 17, 33, 70] {
                let height = 3, stride = width * factor + 5, outStride = width + 3
                var source = (0..<(stride * height * factor)).map { _ in random.next() }
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

    func testBilinearShrinkInterpolatesAtEachSamplesCentre() throws {
        try Self.requireCPU("ssse3", for: "the bilinear shrink")
        var random = TestBytes(seed: 777)
        /// Where output sample `index` of `count` falls in `size` source samples, as the C code has it.
        func position(_ index: Int, _ count: Int, _ size: Int) -> (before: Int, weight: Int) {
            let place = max(0, (2 * index + 1) * size * 64 / (2 * count) - 32)
            return place >> 6 >= size - 1 ? (size - 2, 64) : (place >> 6, place & 63)
        }
        // Window-like shrinks, odd sizes, a row that ends inside a group of eight, no shrink at all.
        for (width, height, toWidth, toHeight) in [(1920, 1080, 1280, 720), (1920, 1080, 1001, 563), (100, 60, 51, 31),
                                                   (37, 20, 20, 11), (33, 17, 33, 17)] {
            let stride = width + 7, outStride = toWidth + 5
            let source = (0..<(stride * height)).map { _ in random.next() }
            var output = [UInt8](repeating: 0, count: outStride * toHeight)
            XCTAssertEqual(lw_bilinear_shrink_plane(source, stride, Int32(width), Int32(height), &output, outStride,
                                                    Int32(toWidth), Int32(toHeight)), 0)
            var mismatches = 0
            for y in 0..<toHeight {
                let (above, down) = position(y, toHeight, height)
                for x in 0..<toWidth {
                    let (left, across) = position(x, toWidth, width)
                    func column(_ x: Int) -> Int {
                        (Int(source[above * stride + x]) * (64 - down) + Int(source[(above + 1) * stride + x]) * down + 32) >> 6
                    }
                    let expected = (column(left) * (64 - across) + column(left + 1) * across + 32) >> 6
                    if Int(output[y * outStride + x]) != expected { mismatches += 1 }
                }
            }
            XCTAssertEqual(mismatches, 0, "\(width)×\(height) → \(toWidth)×\(toHeight)")
        }
        var output = [UInt8](repeating: 0, count: 100)
        XCTAssertEqual(lw_bilinear_shrink_plane([UInt8](repeating: 0, count: 2000), 50, 50, 40, &output, 10, 10, 10), -1,
                       "a shrink to half or less is the box filter's or swscale's")
    }

    func testColourConversionIsWithinOneLevelOfTheExactMatrix() throws {
        try Self.requireCPU("avx2", for: "the colour converter")
        var random = TestBytes(seed: 99)
        // Rows of 32 pixels a step and the odd ends; BT.601, BT.709, BT.2020; video and full range.
        for (width, height) in [(70, 9), (37, 21), (32, 2)] {
            for (kr, kb) in [(0.299, 0.114), (0.2126, 0.0722), (0.2627, 0.0593)] {
                for full in [false, true] { for rgba in [false, true] {
                    let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
                    let y = (0..<(width * height)).map { _ in random.next() }
                    let u = (0..<(chromaWidth * chromaHeight)).map { _ in random.next() }
                    let v = (0..<(chromaWidth * chromaHeight)).map { _ in random.next() }
                    var output = [UInt8](repeating: 0, count: width * height * 4)
                    var matrix = LwYuvMatrix()
                    lw_yuv_matrix_init(&matrix, kr, kb, full ? 1 : 0)
                    XCTAssertEqual(lw_yuv420_to_bgra(y, width, u, chromaWidth, v, chromaWidth, &output, width * 4,
                                                     Int32(width), Int32(height), &matrix, rgba ? 1 : 0), 0)
                    var worst = 0
                    for row in 0..<height {
                        for column in 0..<width {
                            let chroma = (row / 2) * chromaWidth + column / 2
                            let luma = full ? Double(y[row * width + column]) : (Double(y[row * width + column]) - 16) * 255 / 219
                            let scale = full ? 1 : 255.0 / 224
                            let cb = (Double(u[chroma]) - 128) * scale, cr = (Double(v[chroma]) - 128) * scale
                            let kg = 1 - kr - kb
                            let blue = luma + 2 * (1 - kb) * cb, red = luma + 2 * (1 - kr) * cr
                            let green = luma - 2 * kb * (1 - kb) / kg * cb - 2 * kr * (1 - kr) / kg * cr
                            let exact = rgba ? [red, green, blue, 255] : [blue, green, red, 255]
                            for channel in 0..<4 {
                                let expected = Int(min(255, max(0, exact[channel])).rounded())
                                worst = max(worst, abs(expected - Int(output[(row * width + column) * 4 + channel])))
                            }
                        }
                    }
                    XCTAssertLessThanOrEqual(worst, 1, "\(width)×\(height), Kr \(kr), full range \(full), RGBA \(rgba)")
                } }
            }
        }
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
        // BT.601 video range: white on the left, black on the right, red across the bottom quarter.
        let frame = try Self.frame(width: 1920, height: 1080, colorspace: AVCOL_SPC_BT470BG,
                                   left: (235, 128, 128), right: (16, 128, 128), bottom: (81, 90, 240))
        var pointer: UnsafeMutablePointer<AVFrame>? = frame
        defer { av_frame_free(&pointer) }
        let scaler = FrameScaler()
        // Box ÷4; box ÷2 then bilinear; bilinear alone; box ÷4 then fast bilinear; no shrink.
        for size in [PixelSize(width: 480, height: 270), PixelSize(width: 600, height: 338), PixelSize(width: 1280, height: 720),
                     PixelSize(width: 200, height: 113), PixelSize(width: 1920, height: 1080)] {
            let converted = try scaler.convert(frame, to: size, sequence: 1)
            XCTAssertEqual(PixelSize(width: converted.width, height: converted.height), size)
            Self.assertColours(converted, left: (255, 255, 255), right: (0, 0, 0), bottom: (255, 0, 0))
        }
    }

    func testColourMatrixAndRangeFollowTheFrameOrItsSize() throws {
        // Pure red, then a dark grey that full range and video range tell apart (40 vs 28).
        let red709 = (63, 102, 240), red601 = (81, 90, 240), redFull601 = (76, 85, 255)
        let cases: [(name: String, width: Int, colorspace: AVColorSpace, range: AVColorRange, format: AVPixelFormat,
                     red: (Int, Int, Int), grey: Int)] = [
            ("tagged BT.709", 640, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, AV_PIX_FMT_YUV420P, red709, 28),
            ("tagged BT.601, HD", 1920, AVCOL_SPC_SMPTE170M, AVCOL_RANGE_MPEG, AV_PIX_FMT_YUV420P, red601, 28),
            ("untagged HD: BT.709", 1920, AVCOL_SPC_UNSPECIFIED, AVCOL_RANGE_UNSPECIFIED, AV_PIX_FMT_YUV420P, red709, 28),
            ("untagged SD: BT.601", 640, AVCOL_SPC_UNSPECIFIED, AVCOL_RANGE_UNSPECIFIED, AV_PIX_FMT_YUV420P, red601, 28),
            ("full range tagged", 1920, AVCOL_SPC_BT470BG, AVCOL_RANGE_JPEG, AV_PIX_FMT_YUV420P, redFull601, 40),
            ("full-range format", 640, AVCOL_SPC_BT470BG, AVCOL_RANGE_UNSPECIFIED, AV_PIX_FMT_YUVJ420P, redFull601, 40),
            // 4:2:2 goes through swscale, told the same details.
            ("4:2:2 tagged BT.709", 640, AVCOL_SPC_BT709, AVCOL_RANGE_MPEG, AV_PIX_FMT_YUV422P, red709, 28),
            ("4:2:2 full range", 1920, AVCOL_SPC_BT470BG, AVCOL_RANGE_JPEG, AV_PIX_FMT_YUV422P, redFull601, 40),
        ]
        for test in cases {
            let height = test.width * 9 / 16
            let frame = try Self.frame(width: test.width, height: height, colorspace: test.colorspace, range: test.range,
                                       format: test.format, left: (40, 128, 128), right: (40, 128, 128), bottom: test.red)
            var pointer: UnsafeMutablePointer<AVFrame>? = frame
            defer { av_frame_free(&pointer) }
            let scaler = FrameScaler()
            for size in [PixelSize(width: test.width, height: height), PixelSize(width: test.width / 4, height: height / 4)] {
                let converted = try scaler.convert(frame, to: size, sequence: 1)
                Self.assertColours(converted, left: (test.grey, test.grey, test.grey), right: (test.grey, test.grey, test.grey),
                                   bottom: (255, 0, 0), tolerance: 3, "\(test.name) at \(size.width) px")
            }
        }
    }

    /// Skips a test of SIMD code on a CPU without `flag` (where the code returns -1 and swscale does
    /// the work); on one that has it, the code must run.
    private static func requireCPU(_ flag: String, for code: String) throws {
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let flags = info.split(separator: "\n").first { $0.hasPrefix("flags") }?.split(separator: " ") ?? []
        guard flags.contains(Substring(flag)) else {
            throw XCTSkip("\(code) needs \(flag), which this CPU lacks; swscale does its work here")
        }
    }

    /// Asserts the colours of a frame made by `frame(…)`: its left half, right half and bottom quarter.
    private static func assertColours(_ frame: VideoFrame, left: (Int, Int, Int), right: (Int, Int, Int), bottom: (Int, Int, Int),
                                      tolerance: Int = 6, _ context: String = "", line: UInt = #line) {
        let checks = [(0.25, 0.3, left), (0.75, 0.3, right), (0.5, 0.9, bottom)]
        for (relativeX, relativeY, expected) in checks {
            let x = Int(relativeX * Double(frame.width)), y = Int(relativeY * Double(frame.height))
            let pixel = frame.rgb(x: x, y: y)
            let off = [abs(Int(pixel.r) - expected.0), abs(Int(pixel.g) - expected.1), abs(Int(pixel.b) - expected.2)].max()!
            XCTAssertLessThanOrEqual(off, tolerance, "\(context) \(frame.width)×\(frame.height) at (\(x), \(y)) is \(pixel), expected \(expected)",
                                     line: line)
        }
    }

    /// A 4:2:0 (or 4:2:2) frame with (Y, U, V) `left` on the left half, `right` on the right half and `bottom`
    /// across the bottom quarter, tagged with `colorspace` and `range`.
    private static func frame(width: Int, height: Int, colorspace: AVColorSpace, range: AVColorRange = AVCOL_RANGE_MPEG,
                              format: AVPixelFormat = AV_PIX_FMT_YUV420P, left: (Int, Int, Int), right: (Int, Int, Int),
                              bottom: (Int, Int, Int)) throws -> UnsafeMutablePointer<AVFrame> {
        let frame = try XCTUnwrap(av_frame_alloc())
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.format = format.rawValue
        frame.pointee.colorspace = colorspace
        frame.pointee.color_range = range
        XCTAssertEqual(av_frame_get_buffer(frame, 0), 0)
        let rows = format == AV_PIX_FMT_YUV422P ? 1 : 2  // chroma's vertical subsampling
        let planes = [(frame.pointee.data.0!, Int(frame.pointee.linesize.0), 1, 1), (frame.pointee.data.1!, Int(frame.pointee.linesize.1), 2, rows),
                      (frame.pointee.data.2!, Int(frame.pointee.linesize.2), 2, rows)]
        for (plane, (data, stride, across, down)) in planes.enumerated() {
            for y in 0..<((height + down - 1) / down) {
                for x in 0..<((width + across - 1) / across) {
                    let value = y * down >= height * 3 / 4 ? bottom : (x * across < width / 2 ? left : right)
                    data[y * stride + x] = UInt8([value.0, value.1, value.2][plane])
                }
            }
        }
        return frame
    }
}

/// Repeatable pseudo-random bytes (a linear congruential generator) for pixel planes.
private struct TestBytes {
    var seed: UInt32

    mutating func next() -> UInt8 {
        seed = seed &* 1_664_525 &+ 1_013_904_223
        return UInt8(truncatingIfNeeded: seed >> 24)
    }
}
