/// How many columns a `TileGrid` lays its tiles in, and how wide a tile is, decided apart from GTK
/// so the choice can be tried on its own. A wide window with few tiles must not leave most of
/// itself empty under one row of small tiles: while every tile fits the height the grid is seen in,
/// the column count giving the biggest tiles wins (four tiles in a 1600×1000 window: two rows of
/// two); when no count lets them all fit, as many columns as tiles of the minimum width fit, and
/// the grid scrolls.
struct TileShape: Equatable {
    var columns: Int
    /// At most a column's width; less when that is what makes the rows fit the height.
    var tileWidth: Int32

    /// A tile's height at any width, from its heights at two widths: its picture keeps its aspect
    /// ratio above captions of their own height, so the height is a line in the width.
    struct Height {
        let base: Double
        let slope: Double

        init(_ first: (width: Int32, height: Int32), _ second: (width: Int32, height: Int32)) {
            slope = second.width == first.width ? 0 : Double(second.height - first.height) / Double(second.width - first.width)
            base = Double(first.height) - slope * Double(first.width)
        }

        func at(_ width: Int32) -> Double { base + slope * Double(width) }
    }

    /// The shape for tiles of `heights`, in their order, in a grid `width` wide seen `fitHeight`
    /// high (0: not known, the most columns), tiles at least `minimumTileWidth` wide, in at most
    /// `maximumColumns` columns `spacing` apart (and rows as far apart).
    static func choose(width: Int32, fitHeight: Int32, heights: [Height], minimumTileWidth: Int32, maximumColumns: Int,
                       spacing: Int32) -> TileShape {
        let fitting = Int((width + spacing) / (minimumTileWidth + spacing))
        let most = max(1, min(maximumColumns, fitting, max(heights.count, 1)))
        func columnWidth(_ columns: Int) -> Int32 { max(1, (width - spacing * Int32(columns - 1)) / Int32(columns)) }
        let widest = TileShape(columns: most, tileWidth: columnWidth(most))
        guard fitHeight > 0, !heights.isEmpty else { return widest }
        var best: TileShape?
        for columns in 1...most {
            // The rows' height at a tile width: each row as tall as its tallest tile.
            func rowsHeight(_ tileWidth: Int32) -> Double {
                stride(from: 0, to: heights.count, by: columns).reduce(-Double(spacing)) { total, start in
                    let row = heights[start..<min(start + columns, heights.count)]
                    return total + (row.map { $0.at(tileWidth) }.max() ?? 0) + Double(spacing)
                }
            }
            let cap = columnWidth(columns)
            guard cap >= minimumTileWidth, rowsHeight(minimumTileWidth) <= Double(fitHeight) else { continue }
            // The widest tile up to the column's width whose rows still fit.
            var (fits, tooWide) = (minimumTileWidth, cap + 1)
            while tooWide - fits > 1 {
                let middle = (fits + tooWide) / 2
                if rowsHeight(middle) <= Double(fitHeight) { fits = middle } else { tooWide = middle }
            }
            if fits > best?.tileWidth ?? 0 { best = TileShape(columns: columns, tileWidth: fits) }
        }
        return best ?? widest
    }
}
