/// Finds the stream's picture on a screenshot by the squares `rtsp_server.py --screen-marks` paints
/// at its corners: orange (255,128,0) top-right, chartreuse (128,255,0) bottom-left (Layerwatch's
/// LIVE badge sits top-left), colours the SMPTE picture, its scaled edges and the desktop do not
/// show. Each player scales and converts the picture its own way, so the colours are matched
/// loosely and the marks by shape: a solid square. Where several pictures are on screen (a mini
/// window beside the main one), the largest is taken.
enum ScreenMarks {
    /// The picture's rectangle, or nil when both marks are not on screen (yet).
    static func find(in shot: Screenshot) -> ScreenRect? {
        var orange = Blobs(), chartreuse = Blobs()
        shot.pixels.withUnsafeBufferPointer { bgrx in
            for row in 0..<shot.rect.height {
                var offset = row * shot.rect.width * 4
                for column in 0..<shot.rect.width {
                    defer { offset += 4 }
                    let (b, g, r) = (bgrx[offset], bgrx[offset + 1], bgrx[offset + 2])
                    guard b < 60, g > 100 else { continue }
                    if r > 200, g < 165 {
                        orange.add(x: shot.rect.x + column, y: shot.rect.y + row)
                    } else if r > 90, r < 170, g > 190 {
                        chartreuse.add(x: shot.rect.x + column, y: shot.rect.y + row)
                    }
                }
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

    /// Bounding boxes of touching pixels of one colour, with how many pixels each holds.
    private struct Blobs {
        private var boxes: [(rect: ScreenRect, count: Int)] = []

        /// Adds the pixel at (x, y) to the box it touches (scanning goes row by row), or starts one.
        mutating func add(x: Int, y: Int) {
            for index in boxes.indices.reversed() {
                let box = boxes[index].rect
                guard x >= box.x - 1, x <= box.x + box.width, y <= box.y + box.height else { continue }
                let left = min(box.x, x), right = max(box.x + box.width, x + 1)
                boxes[index] = (ScreenRect(x: left, y: box.y, width: right - left, height: max(box.height, y + 1 - box.y)),
                                boxes[index].count + 1)
                return
            }
            boxes.append((ScreenRect(x: x, y: y, width: 1, height: 1), 1))
        }

        /// The box with the most pixels among those that are nearly square and nearly full.
        var largestSquare: ScreenRect? {
            boxes.filter { box in
                let (w, h) = (box.rect.width, box.rect.height)
                return w >= 3 && h >= 3 && abs(w - h) <= max(2, w / 5) && box.count * 10 >= w * h * 8
            }.max { $0.count < $1.count }?.rect
        }
    }
}
