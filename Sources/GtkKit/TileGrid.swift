import CGtk
import CLayerwatch

/// A grid of equal-width tiles that reflows with its width and the height it is seen in — the
/// biggest tiles that all fit `fitHeight`, else as many columns as tiles of at least
/// `minimumTileWidth` fit, up to `maximumColumns` (`TileShape`) — in an order the owner sets. Reordering and
/// reflowing only move the tiles: each is parented once and stays parented (and mapped) until it
/// is removed, so a tile showing a camera never drops its stream or flashes black. A row is as tall
/// as its tallest tile at the tile width (height-for-width: a picture keeps its aspect ratio).
///
/// Keep this object for as long as `widget` is shown: the host's layout runs through it.
@MainActor
public final class TileGrid: HostedLayout {
    /// Where a tile sits now, in the host's coordinates.
    public struct Frame: Equatable, Sendable {
        public var x, y, width, height: Int32
        public var maxY: Int32 { y + height }
    }

    /// The host to embed (in a scrolled window: it grows downwards).
    public var widget: UnsafeMutablePointer<GtkWidget> { host.pointer }
    /// The tiles in the order they are shown.
    public private(set) var tiles: [UnsafeMutablePointer<GtkWidget>] = []
    /// The columns of the last allocation.
    public private(set) var columns = 1
    /// Where each tile was placed by the last allocation, in `tiles` order.
    public private(set) var frames: [Frame] = []
    /// Called after each allocation (from inside the size-allocate pass: only read, never resize).
    public var onAllocate: (() -> Void)?

    /// The height the grid is seen in (the scrolled window's view of it), which the tiles grow to
    /// fill; 0 while unknown.
    public var fitHeight: Int32 = 0 {
        didSet { if fitHeight != oldValue { gtk_widget_queue_resize(host.pointer) } }
    }

    public let minimumTileWidth: Int32
    public let maximumColumns: Int
    public let spacing: Int32

    private let host: GObjectRef<UnsafeMutablePointer<GtkWidget>>

    public init(minimumTileWidth: Int32, maximumColumns: Int, spacing: Int32) {
        precondition(minimumTileWidth > 0 && maximumColumns > 0 && spacing >= 0)
        self.minimumTileWidth = minimumTileWidth
        self.maximumColumns = maximumColumns
        self.spacing = spacing
        host = GObjectRef(adopting: lw_layout_host_new())
        gtk_widget_add_css_class(host.pointer, "tile-grid")
        attachLayout(self, to: host.pointer)
    }

    isolated deinit {
        detachLayout(from: host.pointer)
    }

    /// Adds `tile` at the end. It must have no parent.
    public func append(_ tile: UnsafeMutablePointer<GtkWidget>) {
        tiles.append(tile)
        gtk_widget_set_parent(tile, host.pointer)
    }

    /// Takes `tile` out of the grid (unparenting drops the grid's reference to it).
    public func remove(_ tile: UnsafeMutablePointer<GtkWidget>) {
        guard let index = tiles.firstIndex(of: tile) else { return }
        tiles.remove(at: index)
        gtk_widget_unparent(tile)
        gtk_widget_queue_resize(host.pointer)
    }

    /// Shows the tiles in `order` (the grid's own tiles, each once). Only positions change, and
    /// only when the order does.
    public func setOrder(_ order: [UnsafeMutablePointer<GtkWidget>]) {
        precondition(Set(order) == Set(tiles) && order.count == tiles.count, "an order of the grid's own tiles")
        guard order != tiles else { return }
        tiles = order
        // Keyboard focus (Tab) follows the sibling order: keep it the order on screen. Moving a
        // child among its own parent's children neither unparents nor unmaps it.
        var previous: UnsafeMutablePointer<GtkWidget>?
        for tile in order {
            gtk_widget_insert_after(tile, host.pointer, previous)
            previous = tile
        }
        gtk_widget_queue_resize(host.pointer)
    }

    // MARK: HostedLayout

    var requestMode: GtkSizeRequestMode { GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH }

    func measure(_ orientation: GtkOrientation, forSize: Int32) -> (minimum: Int32, natural: Int32) {
        if orientation == GTK_ORIENTATION_HORIZONTAL {
            let natural = Int32(min(tiles.count, 2)) * (minimumTileWidth + spacing) - spacing
            return (minimumTileWidth, max(minimumTileWidth, natural))
        }
        let width = forSize < 0 ? minimumTileWidth : forSize
        let height = layout(width: width).frames.reduce(0) { max($0, $1.maxY) }
        return (height, height)
    }

    func allocate(width: Int32, height: Int32) {
        (columns, frames) = layout(width: width)
        for (tile, frame) in zip(tiles, frames) {
            place(tile, x: frame.x, y: frame.y, width: frame.width, height: frame.height)
        }
        onAllocate?()
    }

    /// The columns and each tile's frame in a grid `width` wide: equal columns (centred when the
    /// tiles are narrower than the width allows), rows as tall as their tallest tile.
    private func layout(width: Int32) -> (columns: Int, frames: [Frame]) {
        let chosen = shape(width: width)
        let (columns, tileWidth) = (chosen.columns, chosen.tileWidth)
        let left = max(0, (width - Int32(columns) * (tileWidth + spacing) + spacing) / 2)
        var frames: [Frame] = []
        var y: Int32 = 0
        for start in stride(from: 0, to: tiles.count, by: columns) {
            let row = tiles[start..<min(start + columns, tiles.count)]
            let height = row.map { GtkKit.measure($0, GTK_ORIENTATION_VERTICAL, forSize: tileWidth).natural }.max() ?? 0
            for column in 0..<row.count {
                frames.append(Frame(x: left + Int32(column) * (tileWidth + spacing), y: y, width: tileWidth, height: height))
            }
            y += height + spacing
        }
        return (columns, frames)
    }

    /// The shape for `width`, from each tile's height at the narrowest tile and at the whole width
    /// (GTK keeps those measures until a tile changes).
    private func shape(width: Int32) -> TileShape {
        let widest = max(width, minimumTileWidth + 1)
        let heights = tiles.map { tile in
            TileShape.Height((minimumTileWidth, GtkKit.measure(tile, GTK_ORIENTATION_VERTICAL, forSize: minimumTileWidth).natural),
                             (widest, GtkKit.measure(tile, GTK_ORIENTATION_VERTICAL, forSize: widest).natural))
        }
        return TileShape.choose(width: width, fitHeight: fitHeight, heights: heights, minimumTileWidth: minimumTileWidth,
                                maximumColumns: maximumColumns, spacing: spacing)
    }
}
