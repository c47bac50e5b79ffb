/// Finds the stream's picture on a screenshot by the squares `rtsp_server.py --screen-marks` paints
/// at its corners: orange (255,128,0) top-right, chartreuse (128,255,0) bottom-left (Layerwatch's
/// LIVE badge sits top-left), colours the SMPTE picture, its scaled edges and the desktop do not
/// show. Each player scales and converts the picture its own way, so the colours are matched
/// loosely and the marks by shape: a solid square. Where several pictures are on screen (a mini
/// window beside the main one), the largest is taken.
enum ScreenMarks {
    /// The picture's rectangle, or nil when both marks are not on screen (yet).
    static func find(in shot: Screenshot) -> ScreenRect? {
        var orange = PixelBlobs(), chartreuse = PixelBlobs()
        shot.forEachPixel { x, y, b, g, r in
            guard b < 60, g > 100 else { return }
            if r > 200, g < 165 {
                orange.add(x: x, y: y)
            } else if r > 90, r < 170, g > 190 {
                chartreuse.add(x: x, y: y)
            }
        }
        guard let topRight = orange.largestSquare, let bottomLeft = chartreuse.largestSquare else { return nil }
        let picture = ScreenRect(x: bottomLeft.x, y: topRight.y, width: topRight.x + topRight.width - bottomLeft.x,
                                 height: bottomLeft.y + bottomLeft.height - topRight.y)
        // The marks must belong to one 16:9 picture whose width is about 64 marks.
        let aspect = Double(picture.width) / Double(max(picture.height, 1)) / (16.0 / 9.0)
        let marks = Double(picture.width) / Double(topRight.width)
        guard picture.width > 0, picture.height > 0, abs(aspect - 1) < 0.03, marks > 48, marks < 80 else { return nil }
        return picture
    }
}
