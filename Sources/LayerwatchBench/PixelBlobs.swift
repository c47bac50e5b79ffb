/// Bounding boxes of touching pixels of one colour, with how many pixels each holds: how the benches
/// find the coloured marks `rtsp_server.py --screen-marks` paints at a picture's corners.
struct PixelBlobs {
    private var boxes: [(rect: ScreenRect, count: Int)] = []

    /// Adds the pixel at (x, y) to the box it touches (scanning goes row by row), or starts one.
    mutating func add(x: Int, y: Int) {
        for index in boxes.indices.reversed() {
            let box = boxes[index].rect
            guard x >= box.x - 1, x <= box.x + box.width, y >= box.y, y <= box.y + box.height else { continue }
            let left = min(box.x, x), right = max(box.x + box.width, x + 1)
            boxes[index] = (ScreenRect(x: left, y: box.y, width: right - left, height: max(box.height, y + 1 - box.y)),
                            boxes[index].count + 1)
            return
        }
        boxes.append((ScreenRect(x: x, y: y, width: 1, height: 1), 1))
    }

    /// The boxes that are nearly square and nearly full: the marks.
    var squares: [ScreenRect] { squareBoxes.map(\.rect) }

    /// The square with the most pixels.
    var largestSquare: ScreenRect? { squareBoxes.max { $0.count < $1.count }?.rect }

    private var squareBoxes: [(rect: ScreenRect, count: Int)] {
        boxes.filter { box in
            let (w, h) = (box.rect.width, box.rect.height)
            return w >= 3 && h >= 3 && abs(w - h) <= max(2, w / 5) && box.count * 10 >= w * h * 8
        }
    }
}

extension Screenshot {
    /// Calls `body` with every pixel's screen position and its blue, green and red, row by row.
    func forEachPixel(_ body: (_ x: Int, _ y: Int, _ b: UInt8, _ g: UInt8, _ r: UInt8) -> Void) {
        pixels.withUnsafeBufferPointer { bgrx in
            for row in 0..<rect.height {
                var offset = row * rect.width * 4
                for column in 0..<rect.width {
                    body(rect.x + column, rect.y + row, bgrx[offset], bgrx[offset + 1], bgrx[offset + 2])
                    offset += 4
                }
            }
        }
    }
}
