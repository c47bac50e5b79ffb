import CGtk
import Foundation
import GtkKit

/// Zoom and pan on one camera surface, as people expect of a picture: the wheel or a pinch zooms
/// about the pointer or the fingers (up to 8×), a drag pans a zoomed picture, a double-click fits it
/// again (or zooms in twice at that point), and the `+`, `-` and `0` features step and fit (see
/// `step`). Holds the view's `PictureZoom` and tells `onChange` of each new one. Unzoomed, a drag is
/// left to whatever is behind (a mini window's drag moves the window).
@MainActor
final class ZoomControls {
    private(set) var zoom = PictureZoom.fitted
    var onChange: @MainActor (PictureZoom) -> Void = { _ in }

    private let area: UnsafeMutablePointer<GtkWidget>
    /// The picture's width over its height as drawn (upright); it is drawn centred, contain fit.
    private let aspectRatio: @MainActor () -> Double
    /// Where the pointer is over the area, for the wheel.
    private var pointer: (x: Double, y: Double)?
    /// The zoom a drag or a pinch started from, and the pinch's middle.
    private var dragStart: PictureZoom?
    private var pinchStart: (zoom: PictureZoom, middle: (x: Double, y: Double))?

    /// Zoom controls over `area` (the surface's overlay, the picture filling it).
    init(on area: UnsafeMutablePointer<GtkWidget>, aspectRatio: @escaping @MainActor () -> Double) {
        self.area = area
        self.aspectRatio = aspectRatio
        followPointer()
        zoomWithWheel()
        zoomWithPinch()
        panWithDrag()
        fitOnDoubleClick()
    }

    /// Sets the zoom (a key, the indicator, a test).
    func set(_ zoom: PictureZoom) {
        guard zoom != self.zoom else { return }
        self.zoom = zoom
        onChange(zoom)
    }

    /// One step in or out about the middle of the view (the `+` and `-` keys).
    func step(in zoomIn: Bool) {
        set(zoom.stepped(in: zoomIn))
    }

    /// Where (`x`, `y`) of the area falls on the picture as drawn, in fractions of its sides (kept
    /// inside it).
    func viewPoint(x: Double, y: Double) -> (x: Double, y: Double) {
        let frame = pictureFrame()
        guard frame.width > 0, frame.height > 0 else { return (0.5, 0.5) }
        return (min(max((x - frame.x) / frame.width, 0), 1), min(max((y - frame.y) / frame.height, 0), 1))
    }

    /// The rectangle of the area the picture is drawn in: the largest of its shape that fits, centred.
    private func pictureFrame() -> (x: Double, y: Double, width: Double, height: Double) {
        let width = Double(gtk_widget_get_width(area)), height = Double(gtk_widget_get_height(area))
        let ratio = aspectRatio()
        guard width > 0, height > 0, ratio > 0, ratio.isFinite else { return (0, 0, width, height) }
        let drawnWidth = min(width, height * ratio), drawnHeight = drawnWidth / ratio
        return ((width - drawnWidth) / 2, (height - drawnHeight) / 2, drawnWidth, drawnHeight)
    }

    private func followPointer() {
        let motion = gtk_event_controller_motion_new()!
        connectPointSignal(motion, "enter") { [weak self] x, y in self?.pointer = (x, y) }
        connectPointSignal(motion, "motion") { [weak self] x, y in self?.pointer = (x, y) }
        connectSignal(motion, "leave") { [weak self] in self?.pointer = nil }
        gtk_widget_add_controller(area, motion)
    }

    /// A wheel click zooms one step about the pointer; a touchpad's scroll zooms smoothly.
    private func zoomWithWheel() {
        let scroll = gtk_event_controller_scroll_new(GTK_EVENT_CONTROLLER_SCROLL_VERTICAL)!
        connectScrollSignal(scroll) { [weak self] _, dy in
            guard let self else { return false }
            let wheel = gtk_event_controller_scroll_get_unit(gcast(scroll)) == GDK_SCROLL_UNIT_WHEEL
            let factor = wheel ? pow(PictureZoom.step, -dy) : exp(-dy / 200)
            let point = pointer.map { self.viewPoint(x: $0.x, y: $0.y) } ?? (0.5, 0.5)
            set(zoom.zoomed(by: factor, about: point))
            return true
        }
        gtk_widget_add_controller(area, scroll)
    }

    private func zoomWithPinch() {
        let pinch = gtk_gesture_zoom_new()!
        connectSignal(pinch, "begin") { [weak self] (_: UnsafeMutableRawPointer?) in
            guard let self else { return }
            var x = 0.0, y = 0.0
            _ = gtk_gesture_get_bounding_box_center(gcast(pinch), &x, &y)
            pinchStart = (zoom, viewPoint(x: x, y: y))
        }
        connectDoubleSignal(pinch, "scale-changed") { [weak self] scale in
            guard let self, let start = pinchStart else { return }
            set(start.zoom.zoomed(by: scale, about: start.middle))
        }
        connectSignal(pinch, "end") { [weak self] (_: UnsafeMutableRawPointer?) in self?.pinchStart = nil }
        gtk_widget_add_controller(area, pinch)
    }

    /// A drag pans a zoomed picture (and is claimed, so a mini window does not move); unzoomed it
    /// is declined.
    private func panWithDrag() {
        let drag = gtk_gesture_drag_new()!
        connectPointSignal(drag, "drag-begin") { [weak self] _, _ in
            guard let self else { return }
            guard !zoom.isFitted else {
                gtk_gesture_set_state(gcast(drag), GTK_EVENT_SEQUENCE_DENIED)
                return
            }
            dragStart = zoom
            gtk_gesture_set_state(gcast(drag), GTK_EVENT_SEQUENCE_CLAIMED)
        }
        connectPointSignal(drag, "drag-update") { [weak self] dx, dy in
            guard let self, let start = dragStart else { return }
            let frame = pictureFrame()
            guard frame.width > 0, frame.height > 0 else { return }
            set(start.panned(byX: dx / frame.width, y: dy / frame.height))
        }
        connectPointSignal(drag, "drag-end") { [weak self] _, _ in self?.dragStart = nil }
        gtk_widget_add_controller(area, drag)
    }

    private func fitOnDoubleClick() {
        let click = gtk_gesture_click_new()!
        connectClickSignal(click, "pressed") { [weak self] presses, x, y in
            guard let self, presses == 2 else { return }
            gtk_gesture_set_state(gcast(click), GTK_EVENT_SEQUENCE_CLAIMED)
            set(zoom.isFitted ? zoom.zoomed(by: 2, about: viewPoint(x: x, y: y)) : .fitted)
        }
        gtk_widget_add_controller(area, click)
    }
}
