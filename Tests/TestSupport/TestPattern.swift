import StreamKit
import XCTest

/// The seven top bars of the SMPTE colour-bar pattern the test peers send: white, yellow, cyan,
/// green, magenta, red, blue. GStreamer's `videotestsrc pattern=smpte` paints them at full intensity,
/// FFmpeg's `smptebars` at 75 %. Tests assert these colours at the bars' centres to prove real
/// pixels were decoded.
public enum SMPTEBars {
    /// How bright the bars' lit channels are.
    public enum Intensity: Int {
        case gstreamer = 255
        case ffmpeg = 191
    }

    static let channels: [(name: String, r: Bool, g: Bool, b: Bool)] = [
        ("white", true, true, true), ("yellow", true, true, false), ("cyan", false, true, true),
        ("green", false, true, false), ("magenta", true, false, true), ("red", true, false, false),
        ("blue", false, false, true),
    ]

    /// Asserts every bar's colour at its centre, a quarter of the way down, within `tolerance`.
    public static func assertBars(in frame: VideoFrame, intensity: Intensity, tolerance: Int = 40,
                                  file: StaticString = #filePath, line: UInt = #line) {
        for index in channels.indices {
            let x = Int((Double(index) + 0.5) * Double(frame.width) / 7)
            assertBar(index, at: x, frame.height / 4, in: frame, intensity: intensity, tolerance: tolerance, file: file, line: line)
        }
    }

    /// Asserts that pixel (x, y) of `frame` has bar `index`'s colour (0 white … 6 blue).
    public static func assertBar(_ index: Int, at x: Int, _ y: Int, in frame: VideoFrame, intensity: Intensity, tolerance: Int = 40,
                                 file: StaticString = #filePath, line: UInt = #line) {
        let lit = intensity.rawValue, bar = channels[index]
        let expected = (r: bar.r ? lit : 0, g: bar.g ? lit : 0, b: bar.b ? lit : 0)
        let pixel = frame.rgb(x: x, y: y)
        let ok = abs(Int(pixel.r) - expected.r) <= tolerance && abs(Int(pixel.g) - expected.g) <= tolerance
            && abs(Int(pixel.b) - expected.b) <= tolerance
        XCTAssertTrue(ok, "bar \(bar.name) at (\(x), \(y)) is \(pixel), expected \(expected)", file: file, line: line)
    }
}
