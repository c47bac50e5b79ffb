import Foundation

/// The clock `rtsp_server.py --clock-blocks` paints, read where the user sees it: in the X server's
/// framebuffer, on the sample row of the picture found on screen. Every poll grabs that one row;
/// each new value is one frame shown, and its age then is its clock → screen latency.
struct FramebufferClock {
    let screen: XScreen
    let picture: ScreenRect

    /// The row the clock is read on: its sample row in a frame of the picture's height.
    var row: ScreenRect {
        ScreenRect(x: picture.x, y: picture.y + ClockBlocks.sampleRow(height: picture.height), width: picture.width, height: 1)
    }

    /// The value on `shot` (which holds `row`), or nil when a block is neither black nor white (a
    /// picture fading in, a window over it, no picture there).
    func read(_ shot: Screenshot) -> UInt32? {
        var levelsOK = true
        let value = ClockBlocks.read(width: picture.width) { x in
            let (r, g, b) = shot.rgb(x: picture.x + x, y: row.y)
            let low = min(r, g, b), high = max(r, g, b)
            if !(high < 70 || low > 185) { levelsOK = false }
            return g
        }
        return levelsOK ? value : nil
    }

    /// Polls the row about every millisecond for `seconds`: the age of each new value (one per frame
    /// shown) with when it appeared (seconds into the window), and how many readings were thrown away.
    func record(seconds: Double) -> (ages: AgeSeries, rejected: Int) {
        var ages = AgeSeries(), rejected = 0, last: UInt32?
        let start = DispatchTime.now().uptimeNanoseconds
        while true {
            let at = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            guard at < seconds else { break }
            if let shot = screen.grab(row) {
                let now = ClockBlocks.nowMilliseconds()
                switch read(shot) {
                case nil:
                    rejected += 1
                case let value? where value != last:
                    let age = ClockBlocks.age(of: value, now: now)
                    guard age >= 0, age <= 5000 else {
                        rejected += 1
                        break
                    }
                    ages.add(at: at, milliseconds: age)
                    last = value
                default:
                    break
                }
            }
            usleep(1000)
        }
        return (ages, rejected)
    }
}
