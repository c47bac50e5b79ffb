import Foundation

/// The painted clocks of many pictures read together from the framebuffer: each poll grabs one
/// screen row per row of tiles (tiles side by side share their clock's row), about every
/// `every` seconds, and reads each tile's 32 blocks as `FramebufferClock` does. A new value on a
/// tile is a frame shown there.
struct FarmClocks {
    let screen: XScreen
    let pictures: [ScreenRect]

    /// One tile's window: frames shown, their clock → screen ages (ms), unreadable polls.
    struct Tile {
        var frames = 0
        var ages: [Double] = []
        var rejected = 0
    }

    /// Polls for `seconds`; `tick` runs about once a second (the bench samples memory then).
    func record(seconds: Double, every interval: Double, tick: () -> Void) -> [Tile] {
        let clocks = pictures.map { FramebufferClock(screen: screen, picture: $0) }
        // Tiles whose clock rows coincide are read from one grab spanning them.
        let rows = Dictionary(grouping: clocks.indices) { clocks[$0].row.y }.map { y, members -> (ScreenRect, [Int]) in
            let left = members.map { clocks[$0].row.x }.min()!, right = members.map { clocks[$0].row.x + clocks[$0].row.width }.max()!
            return (ScreenRect(x: left, y: y, width: right - left, height: 1), members)
        }
        var tiles = [Tile](repeating: Tile(), count: clocks.count), last = [UInt32?](repeating: nil, count: clocks.count)
        let start = DispatchTime.now().uptimeNanoseconds
        var nextTick = 1.0, polls = 0
        while true {
            let at = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            guard at < seconds else { break }
            if at >= nextTick {
                tick()
                nextTick += 1
            }
            for (rect, members) in rows {
                guard let shot = screen.grab(rect) else { continue }
                let now = ClockBlocks.nowMilliseconds()
                for index in members {
                    guard let value = clocks[index].read(shot) else {
                        tiles[index].rejected += 1
                        continue
                    }
                    guard value != last[index] else { continue }
                    let age = ClockBlocks.age(of: value, now: now)
                    guard age >= 0, age <= 5000 else {
                        tiles[index].rejected += 1
                        continue
                    }
                    last[index] = value
                    tiles[index].frames += 1
                    tiles[index].ages.append(age)
                }
            }
            polls += 1
            // Polls on a fixed schedule, whatever a grab took.
            let next = Double(polls) * interval
            let now = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if next > now { usleep(useconds_t((next - now) * 1e6)) }
        }
        return tiles
    }

    /// How many of the pictures show a readable clock less than 5 s old on `shot` (a whole-screen grab).
    static func readable(_ pictures: [ScreenRect], on shot: Screenshot, screen: XScreen) -> Int {
        pictures.filter { picture in
            guard let value = FramebufferClock(screen: screen, picture: picture).read(shot) else { return false }
            return (0...5000).contains(ClockBlocks.age(of: value))
        }.count
    }
}
