import CGtk
import CLayerwatch
import GtkKit
import StreamKit

/// The video of one printer, as a WidgetRepresentable: a GtkPicture (contain fit) showing one
/// persistent frame paintable that the printer's shared StreamSession feeds. Make attaches to the
/// session, update passes on the display-size hint (never rebuilds), dismantle detaches. The picture
/// is made once per view and never recreated, so the printer's single connection is never dropped.
struct CameraView: WidgetRepresentable {
    typealias Widget = OpaquePointer
    typealias Coordinator = CameraCoordinator

    let session: StreamSession
    /// Device pixels the picture covers: the size frames are converted to (never above the stream's).
    var displaySize: PixelSize
    /// Called on the main loop with every state of the session.
    var onState: @MainActor (SessionState) -> Void

    func makeCoordinator() -> CameraCoordinator {
        CameraCoordinator(session: session, onState: onState)
    }

    func makeWidget(context: RepresentableContext<CameraView>) -> OpaquePointer {
        let picture = gtk_picture_new_for_paintable(context.coordinator.paintable)!
        gtk_picture_set_content_fit(gcast(picture), GTK_CONTENT_FIT_CONTAIN)
        gtk_picture_set_can_shrink(gcast(picture), 1)
        gtk_widget_add_css_class(picture, "camera-picture")
        gtk_widget_set_hexpand(picture, 1)
        gtk_widget_set_vexpand(picture, 1)
        context.coordinator.attach(to: gcast(picture), displaySize: displaySize)
        return gcast(picture)
    }

    func updateWidget(_ picture: OpaquePointer, context: RepresentableContext<CameraView>) {
        context.coordinator.setDisplaySize(displaySize)
    }

    static func dismantleWidget(_ picture: OpaquePointer, coordinator: CameraCoordinator) {
        coordinator.detach()
    }
}

/// Turns a session's events into what the picture shows, on the main loop: frames become the
/// paintable's texture, states go to the page, mapping and unmapping tell the session whether this
/// view wants pixels at all (a hidden tab converts nothing).
@MainActor
final class CameraCoordinator {
    let session: StreamSession
    /// The paintable the picture shows for its whole life (an `LwFramePaintable`).
    let paintable: OpaquePointer
    private let paintableRef: GObjectRef<OpaquePointer>
    private let onState: @MainActor (SessionState) -> Void
    private var consumer: StreamConsumer?
    private var displaySize = PixelSize.full
    private var visible = false
    /// The frame on screen now, for snapshots' fallback and tests.
    private(set) var shownFrame: VideoFrame?

    init(session: StreamSession, onState: @escaping @MainActor (SessionState) -> Void) {
        self.session = session
        self.onState = onState
        paintableRef = GObjectRef(adopting: lw_frame_paintable_new())
        paintable = paintableRef.pointer
    }

    func attach(to picture: UnsafeMutablePointer<GtkWidget>, displaySize: PixelSize) {
        self.displaySize = displaySize
        visible = gtk_widget_get_mapped(picture) != 0
        connectSignal(picture, "map") { [weak self] in self?.setVisible(true) }
        connectSignal(picture, "unmap") { [weak self] in self?.setVisible(false) }
        consumer = session.attach(executor: MainLoopExecutor.main, displaySize: displaySize, visible: visible,
                                  onState: { [weak self] state in
                                      MainActor.assumeIsolated { self?.onState(state) }
                                  }, onFrame: { [weak self] frame in
                                      MainActor.assumeIsolated { self?.show(frame) }
                                  })
    }

    func setDisplaySize(_ size: PixelSize) {
        guard size != displaySize else { return }
        displaySize = size
        consumer?.update(displaySize: size, visible: visible)
    }

    func detach() {
        consumer?.detach()
        consumer = nil
        if session.consumerCount == 0 { FrameTextures.shared.forget(session) }
        lw_frame_paintable_set_frame(paintable, nil, 0, 0)
        shownFrame = nil
    }

    private func setVisible(_ isVisible: Bool) {
        guard isVisible != visible else { return }
        visible = isVisible
        consumer?.update(displaySize: displaySize, visible: visible)
    }

    private func show(_ frame: VideoFrame) {
        let texture = FrameTextures.shared.texture(for: frame, of: session)
        lw_frame_paintable_set_frame(paintable, texture, Int32(frame.sourceWidth), Int32(frame.sourceHeight))
        shownFrame = frame
    }
}
