import CGtk
import CLayerwatch
import GtkKit
import StreamKit

/// The video of one camera, as a WidgetRepresentable: a GtkPicture (contain fit) showing one
/// persistent frame paintable that the camera's shared StreamSession feeds. Make attaches to the
/// session, update applies the display-size hint, the picture's look and the state handler (never
/// rebuilds) — or, given another session (a printer's camera switcher), moves the picture to it —
/// dismantle detaches. The picture is made once per view and never recreated, so the camera's
/// single connection is never dropped.
struct CameraView: WidgetRepresentable {
    typealias Widget = OpaquePointer
    typealias Coordinator = CameraCoordinator

    /// How the picture looks while the session is not live.
    enum Look: Equatable {
        /// Live: the picture as it comes.
        case live
        /// No picture yet: fully transparent, so the first frame fades in.
        case waiting
        /// A picture from before the stream stopped: dimmed.
        case stale
    }

    /// The session shown.
    let session: StreamSession
    /// Device pixels the picture covers: the size frames are converted to (never above the stream's).
    var displaySize: PixelSize
    var look: Look
    /// False while the owner has the picture out of sight though mapped (a farm tile scrolled away).
    var onScreen: Bool
    /// A new picture at each keyframe is enough (a farm tile past the ones shown live).
    var keyframesSuffice: Bool
    /// How the camera is mounted: the picture is drawn upright.
    var orientation: PictureOrientation
    /// How far the view is zoomed into the upright picture, and where.
    var zoom = PictureZoom.fitted
    /// Called on the main loop with every state of the session.
    var onState: @MainActor (SessionState) -> Void

    func makeCoordinator() -> CameraCoordinator {
        CameraCoordinator(session: session)
    }

    func makeWidget(context: RepresentableContext<CameraView>) -> OpaquePointer {
        let picture = gtk_picture_new_for_paintable(context.coordinator.paintable.pointer)!
        gtk_picture_set_content_fit(gcast(picture), GTK_CONTENT_FIT_CONTAIN)
        gtk_picture_set_can_shrink(gcast(picture), true.gboolean)
        gtk_widget_add_css_class(picture, "camera-picture")
        gtk_widget_set_hexpand(picture, true.gboolean)
        gtk_widget_set_vexpand(picture, true.gboolean)
        context.coordinator.attach(to: picture, from: self)
        return gcast(picture)
    }

    func updateWidget(_ picture: OpaquePointer, context: RepresentableContext<CameraView>) {
        context.coordinator.update(from: self)
        setClass(picture, "waiting", look == .waiting)
        setClass(picture, "stale", look == .stale)
    }

    static func dismantleWidget(_ picture: OpaquePointer, coordinator: CameraCoordinator) {
        coordinator.detach()
    }

    private func setClass(_ picture: OpaquePointer, _ name: String, _ on: Bool) {
        let widget: UnsafeMutablePointer<GtkWidget> = gcast(picture)
        guard Bool(gboolean: gtk_widget_has_css_class(widget, name)) != on else { return }
        if on { gtk_widget_add_css_class(widget, name) } else { gtk_widget_remove_css_class(widget, name) }
    }
}

/// Turns a session's events into what the picture shows, on the main loop: frames become the
/// paintable's texture, states go to the latest view's handler, mapping and unmapping (and the
/// owner's on-screen flag) tell the session whether this view wants pixels at all (a hidden tab
/// converts nothing), and the zoom tells the paintable what part of the picture to show and the
/// session what part to convert.
@MainActor
final class CameraCoordinator {
    private(set) var session: StreamSession
    /// The paintable the picture shows for its whole life (an `LwFramePaintable`).
    let paintable = GObjectRef(adopting: lw_frame_paintable_new()!)
    private var consumer: StreamConsumer?
    private var displaySize = PixelSize.full
    private var mapped = false
    private var onScreen = true
    private var keyframesSuffice = false
    private var orientation = PictureOrientation.upright
    private var zoom = PictureZoom.fitted
    private var visible: Bool { mapped && onScreen }
    private var onState: @MainActor (SessionState) -> Void = { _ in }
    /// The texture or surface on screen now; shared with the session's other views.
    private var presentation: AnyObject?
    /// How frames reach this view's renderer, checked with every frame (a window's renderer is
    /// known only once it is realized, and OpenGL ES only once it has drawn).
    private(set) var path = FramePath.texture(.bgra)
    /// The picture this coordinator feeds, from `attach` to `detach`.
    private var picture: UnsafeMutablePointer<GtkWidget>?
    /// The frame on screen now, for the picture's age and tests.
    private(set) var shownFrame: VideoFrame?

    init(session: StreamSession) {
        self.session = session
    }

    func attach(to picture: UnsafeMutablePointer<GtkWidget>, from view: CameraView) {
        adopt(view)
        applyDrawing()
        self.picture = picture
        mapped = Bool(gboolean: gtk_widget_get_mapped(picture))
        connectSignal(picture, "map") { [weak self] in self?.setMapped(true) }
        connectSignal(picture, "unmap") { [weak self] in self?.setMapped(false) }
        attachConsumer()
    }

    private func attachConsumer() {
        consumer = session.attach(executor: MainLoopExecutor.main, displaySize: displaySize, visible: false,
                                  onState: { [weak self] state in
                                      MainActor.assumeIsolated { self?.onState(state) }
                                  }, onFrame: { [weak self] frame in
                                      MainActor.assumeIsolated { self?.show(frame) }
                                  })
        updateConsumer()
    }

    /// Takes the newest view's display size, on-screen flag, keyframe setting, orientation, zoom and
    /// handler; and its session when it is another: the picture then waits for that one's frames.
    func update(from view: CameraView) {
        onState = view.onState
        if view.session !== session, picture != nil {
            consumer?.detach()
            clearPicture()
            session = view.session
            adopt(view)
            applyDrawing()
            attachConsumer()
            return
        }
        let drawingChanged = view.orientation != orientation || view.zoom != zoom
        guard drawingChanged || view.displaySize != displaySize || view.onScreen != onScreen
            || view.keyframesSuffice != keyframesSuffice else { return }
        adopt(view)
        if drawingChanged { applyDrawing() }
        updateConsumer()
    }

    /// Keeps what `view` says the consumer and the drawing need.
    private func adopt(_ view: CameraView) {
        displaySize = view.displaySize
        onScreen = view.onScreen
        keyframesSuffice = view.keyframesSuffice
        orientation = view.orientation
        zoom = view.zoom
    }

    /// The part of the stream in view, in the stream's own orientation.
    private var region: PictureRegion { orientation.streamRegion(ofUpright: zoom.visible) }

    func detach() {
        consumer?.detach()
        consumer = nil
        picture = nil
        clearPicture()
    }

    private func clearPicture() {
        lw_frame_paintable_set_frame(paintable.pointer, nil, nil)
        presentation = nil
        shownFrame = nil
    }

    private func setMapped(_ isMapped: Bool) {
        guard isMapped != mapped else { return }
        mapped = isMapped
        updateConsumer()
    }

    private func updateConsumer() {
        consumer?.update(displaySize: orientation.frameSize(forDisplay: displaySize), visible: visible, order: path.order,
                         keyframesSuffice: keyframesSuffice, region: region)
    }

    /// Draws the picture upright, and only the part in view.
    private func applyDrawing() {
        lw_frame_paintable_set_orientation(paintable.pointer, Int32(orientation.quarterTurns),
                                           orientation.flipHorizontal.gboolean, orientation.flipVertical.gboolean)
        let region = region
        lw_frame_paintable_set_viewport(paintable.pointer, region.x, region.y, region.width, region.height)
    }

    private func show(_ frame: VideoFrame) {
        if shownFrame == nil { LaunchClock.reached("first picture") }
        if let picture, case let current = FramePath.of(picture), current != path {
            path = current
            updateConsumer()  // the next frames come in the order this renderer takes
        }
        var placement = LwFramePlacement(stream_width: Int32(frame.sourceWidth), stream_height: Int32(frame.sourceHeight),
                                         x: Int32(frame.region.x), y: Int32(frame.region.y),
                                         width: Int32(frame.region.width), height: Int32(frame.region.height))
        switch path {
        case .cairoSurface where frame.order == .bgra:
            let surface = FrameSurface.shared(for: frame)
            lw_frame_paintable_set_surface(paintable.pointer, surface.surface, &placement)
            presentation = surface
        case .cairoSurface, .texture:
            let texture = FrameTextures.shared(for: frame)
            lw_frame_paintable_set_frame(paintable.pointer, texture.pointer, &placement)
            presentation = texture
        }
        shownFrame = frame
    }
}
