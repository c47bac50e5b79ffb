import CXImage
import Foundation

/// A connection to the bench's X server for reading what is on screen: any rectangle of the root
/// window, with every window composed as the user would see it (XGetImage).
final class XScreen {
    private let display: UnsafeMutableRawPointer

    init(display name: String) throws {
        guard let display = cx_open(name) else { throw BenchError("cannot open X display \(name)") }
        self.display = display
    }

    deinit {
        cx_close(display)
    }

    /// The pixels of `rect`, or nil when it is not on the screen.
    func grab(_ rect: ScreenRect) -> Screenshot? {
        var pixels = [UInt8](repeating: 0, count: rect.width * rect.height * 4)
        let status = pixels.withUnsafeMutableBufferPointer {
            cx_grab(display, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height), $0.baseAddress)
        }
        return status == 0 ? Screenshot(rect: rect, pixels: pixels) : nil
    }

    /// The whole screen.
    func grabAll() -> Screenshot? {
        grab(ScreenRect(x: 0, y: 0, width: XDisplaySession.width, height: XDisplaySession.height))
    }
}

/// A rectangle of the screen, in pixels.
struct ScreenRect: CustomStringConvertible {
    var x, y, width, height: Int

    var description: String { "\(width)×\(height)" }
}

/// Pixels grabbed from the screen: `rect`'s pixels, 4 bytes each (blue, green, red, unused).
struct Screenshot {
    let rect: ScreenRect
    let pixels: [UInt8]

    /// Red, green and blue at screen position (x, y), which must lie in `rect`.
    func rgb(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let offset = ((y - rect.y) * rect.width + x - rect.x) * 4
        return (pixels[offset + 2], pixels[offset + 1], pixels[offset])
    }
}
