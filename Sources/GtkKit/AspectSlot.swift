import CGtk
import CLayerwatch

/// Gives one child a box of a fixed aspect ratio at whatever width it is offered, whatever the
/// child would ask for itself: the farm's pictures are all 16:9 boxes (a 4:3 camera shows with bars
/// at its sides), so every tile of a row lines up whatever camera it shows.
///
/// Keep this object for as long as `widget` is shown: the host's layout runs through it.
@MainActor
public final class AspectSlot: HostedLayout {
    /// The host to embed; it holds the child for its whole life.
    public var widget: UnsafeMutablePointer<GtkWidget> { host.pointer }
    private let host: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    private let child: UnsafeMutablePointer<GtkWidget>
    private let ratio: Double

    /// Parents `child` (which must have no parent) in a box `ratio` (width over height) wide.
    public init(_ child: UnsafeMutablePointer<GtkWidget>, ratio: Double) {
        precondition(ratio.isFinite && ratio > 0)
        self.child = child
        self.ratio = ratio
        host = GObjectRef(adopting: lw_layout_host_new())
        attachLayout(self, to: host.pointer)
        gtk_widget_set_parent(child, host.pointer)
    }

    isolated deinit {
        detachLayout(from: host.pointer)
    }

    var requestMode: GtkSizeRequestMode { GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH }

    func measure(_ orientation: GtkOrientation, forSize: Int32) -> (minimum: Int32, natural: Int32) {
        if orientation == GTK_ORIENTATION_HORIZONTAL { return (0, 0) }
        let height = forSize < 0 ? 0 : Int32((Double(forSize) / ratio).rounded())
        return (height, height)
    }

    func allocate(width: Int32, height: Int32) {
        place(child, x: 0, y: 0, width: width, height: height)
    }
}
