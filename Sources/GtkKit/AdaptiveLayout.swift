import CGtk
import CLayerwatch

/// Puts a camera page's control bar beside the video in a wide window and below it in a tall or
/// narrow one, by moving only the bar. The video widget is parented once and never recreated,
/// reparented or removed: that would drop a printer's single camera connection and flash black.
/// The arrangement is decided from the allocated size with hysteresis, and applied in an idle after
/// the size-allocate pass, so a resize can neither flap between arrangements nor loop the layout.
///
/// Keep this object for as long as `widget` is shown: the host's layout runs through it.
@MainActor
public final class AdaptiveLayout: HostedLayout {
    /// Where the control bar sits relative to the video.
    public enum Arrangement: Sendable {
        /// Under the video, the bar horizontal: tall or narrow windows.
        case below
        /// Right of the video, the bar vertical: wide windows.
        case beside
    }

    /// The arrangement applied now; starts as `.below`.
    public private(set) var arrangement = Arrangement.below

    /// Width over height of the video content (positive), used to judge which arrangement shows
    /// more of it. The owner sets the stream's aspect ratio; 16:9 until then.
    public var contentAspectRatio = 16.0 / 9.0 {
        didSet {
            precondition(contentAspectRatio.isFinite && contentAspectRatio > 0, "aspect ratio must be positive")
            if contentAspectRatio != oldValue { gtk_widget_queue_allocate(widget) }
        }
    }

    /// Called after the arrangement changed, before the host is laid out again: the place to flip
    /// the bar's orientation (horizontal below, vertical beside).
    public var onArrangementChange: ((Arrangement) -> Void)?

    /// The host to embed; it holds both children for its whole life.
    public var widget: UnsafeMutablePointer<GtkWidget> { host.pointer }

    /// The smallest video area the layout asks for.
    private static let videoMinimum = (width: Int32(160), height: Int32(90))

    private let host: GObjectRef<UnsafeMutablePointer<GtkWidget>>
    private let primary: UnsafeMutablePointer<GtkWidget>
    private let secondary: UnsafeMutablePointer<GtkWidget>
    /// The arrangement the latest allocation asked for; the idle applies it.
    private var proposedArrangement = Arrangement.below
    private lazy var arrangementIdle = CoalescingIdle { [weak self] in self?.applyProposedArrangement() }

    /// Parents `primary` (the video area) and `secondary` (the control bar) into a new host. Neither
    /// may have a parent yet; the host keeps them until it is disposed.
    public init(primary: UnsafeMutablePointer<GtkWidget>, secondary: UnsafeMutablePointer<GtkWidget>) {
        self.primary = primary
        self.secondary = secondary
        host = GObjectRef(adopting: lw_layout_host_new())
        attachLayout(self, to: host.pointer)
        gtk_widget_set_parent(primary, host.pointer)
        gtk_widget_set_parent(secondary, host.pointer)
    }

    isolated deinit {
        detachLayout(from: host.pointer)
    }

    /// A bar of buttons has a fixed thickness and the video fills whatever it is given: the layout
    /// measures without trading width for height.
    var requestMode: GtkSizeRequestMode { GTK_SIZE_REQUEST_CONSTANT_SIZE }

    /// The host's minimum and natural size along `orientation` for the applied arrangement: the
    /// video's (at least `videoMinimum`) plus the bar's along the axis they share, the larger of the
    /// two across it.
    func measure(_ orientation: GtkOrientation, forSize: Int32 = -1) -> (minimum: Int32, natural: Int32) {
        let horizontal = orientation == GTK_ORIENTATION_HORIZONTAL
        let video = GtkKit.measure(primary, orientation)
        let videoMinimum = max(video.minimum, horizontal ? Self.videoMinimum.width : Self.videoMinimum.height)
        let videoNatural = max(video.natural, videoMinimum)
        guard isSecondaryShown else { return (videoMinimum, videoNatural) }
        let bar = GtkKit.measure(secondary, orientation)
        let stacked = (arrangement == .beside) == horizontal
        return stacked
            ? (videoMinimum + bar.minimum, videoNatural + bar.natural)
            : (max(videoMinimum, bar.minimum), max(videoNatural, bar.natural))
    }

    /// Places the children for the applied arrangement, and proposes the other one to the idle
    /// when it would show the video clearly larger.
    func allocate(width: Int32, height: Int32) {
        guard isSecondaryShown else {
            place(primary, x: 0, y: 0, width: width, height: height)
            return
        }
        let thickness: Int32
        switch arrangement {
        case .below:
            thickness = min(GtkKit.measure(secondary, GTK_ORIENTATION_VERTICAL, forSize: width).natural, height)
            place(primary, x: 0, y: 0, width: width, height: height - thickness)
            place(secondary, x: 0, y: height - thickness, width: width, height: thickness)
        case .beside:
            thickness = min(GtkKit.measure(secondary, GTK_ORIENTATION_HORIZONTAL, forSize: height).natural, width)
            place(primary, x: 0, y: 0, width: width - thickness, height: height)
            place(secondary, x: width - thickness, y: 0, width: thickness, height: height)
        }
        proposedArrangement = arrangement.preferred(width: Double(width), height: Double(height),
                                                    barThickness: Double(thickness),
                                                    contentAspectRatio: contentAspectRatio)
        if proposedArrangement != arrangement { arrangementIdle.schedule() }
    }

    private var isSecondaryShown: Bool {
        Bool(gboolean: gtk_widget_get_visible(secondary))
    }

    /// Runs outside the size-allocate pass, so the owner's orientation flip and the resize queued
    /// here start a new layout instead of disturbing the one in progress.
    private func applyProposedArrangement() {
        guard proposedArrangement != arrangement else { return }
        arrangement = proposedArrangement
        onArrangementChange?(arrangement)
        gtk_widget_queue_resize(widget)
    }
}
