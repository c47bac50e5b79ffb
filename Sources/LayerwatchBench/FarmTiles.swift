import Foundation

/// Finds every camera picture on a screenshot of the farm view (or of the peers' windows placed
/// where its tiles were). `rtsp_server.py --screen-marks` paints a chartreuse square (W/64) at each
/// picture's bottom-left corner and an orange one at its top-right, but a farm tile is a card with
/// 12 px rounded corners that clips its picture, and at tile size (about 370 px wide) the orange
/// mark is about 6 px: the corner cuts nearly all of it away. So each picture is found from its
/// chartreuse mark (its left and bottom edges) and the SMPTE picture's top-right bar, which is
/// blue (0, 0, 192) and ends at the picture's right edge: the bench walks right along a row a
/// quarter of the way down until the blue ends (the right edge), then up a column clear of the
/// rounded corner until it ends (the top edge). A picture must be 16:9 within 3 % and about 64
/// marks wide.
enum FarmTiles {
    /// The pictures found, top to bottom then left to right.
    static func find(in shot: Screenshot) -> [ScreenRect] {
        var chartreuse = PixelBlobs()
        shot.forEachPixel { x, y, b, g, r in
            if b < 60, g > 190, r > 90, r < 170 { chartreuse.add(x: x, y: y) }
        }
        return chartreuse.squares.compactMap { picture(from: $0, on: shot) }.sorted { ($0.y, $0.x) < ($1.y, $1.x) }
    }

    /// The picture whose bottom-left mark is `mark`, or nil when its blue bar is not where a 16:9
    /// picture about 64 marks wide would have it.
    private static func picture(from mark: ScreenRect, on shot: Screenshot) -> ScreenRect? {
        let side = Double(mark.width + mark.height) / 2
        let left = mark.x, bottom = mark.y + mark.height  // exclusive
        let estimate = (width: side * 64, height: side * 36)
        func inside(_ x: Int, _ y: Int) -> Bool {
            x >= shot.rect.x && y >= shot.rect.y && x < shot.rect.x + shot.rect.width && y < shot.rect.y + shot.rect.height
        }
        func blue(_ x: Int, _ y: Int) -> Bool {
            guard inside(x, y) else { return false }
            let (r, g, b) = shot.rgb(x: x, y: y)
            return b > 120 && r < 80 && g < 80
        }
        // Right edge: along a row in the top bars, the end of the blue run.
        let y = bottom - Int(estimate.height * 0.75)
        var x = left + Int(estimate.width * 0.5), seen = false, right: Int?
        while x < left + Int(estimate.width * 1.4), inside(x, y) {
            if blue(x, y) { seen = true } else if seen { right = x; break }
            x += 1
        }
        guard let right else { return nil }
        // Top edge: up a column of the blue bar clear of the clipped corner and the orange mark.
        let column = right - 1 - Int(2 * side) - 12
        var top = y
        while blue(column, top - 1) { top -= 1 }
        let rect = ScreenRect(x: left, y: top, width: right - left, height: bottom - top)
        let aspect = Double(rect.width) / Double(max(rect.height, 1)) / (16.0 / 9.0)
        let marks = Double(rect.width) / side
        guard rect.width > 0, rect.height > 0, abs(aspect - 1) < 0.03, marks > 48, marks < 80 else { return nil }
        return rect
    }
}
