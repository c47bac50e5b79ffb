import CGtk
import GtkKit

/// Resizes a real window the way a user would and waits, frame by frame, until GTK, the X server
/// and the window's layout agree on the new size and layout has come to rest. Counting the frame
/// clock's layout passes also proves a layout never loops.
@MainActor
public final class WindowSizer {
    public struct Size: Equatable, CustomStringConvertible {
        public let width: Int32
        public let height: Int32

        public init(width: Int32, height: Int32) {
            self.width = width
            self.height = height
        }

        public var description: String { "\(width)×\(height)" }
    }

    private let window: UnsafeMutablePointer<GtkWidget>
    /// Layout phases of the window's frame clock: each one allocates whatever was queued.
    public private(set) var layoutPasses = 0

    /// Watches `window`, which must be realized (presented).
    public init(_ window: UnsafeMutablePointer<GtkWidget>) {
        self.window = window
        connectSignal(gtk_widget_get_frame_clock(window)!, "layout") { [weak self] in self?.layoutPasses += 1 }
    }

    /// Sets the window's size and waits until it is applied everywhere and layout is quiet. A user
    /// resizes a window already shown: first waits for the window's first size from the X server,
    /// which, arriving after the new size was asked (a loaded machine), would undo it.
    public func resize(width: Int32, height: Int32) -> Bool {
        guard iterateMainContext(until: { gtk_widget_get_width(window) > 0 && size == serverSize }) else { return false }
        gtk_window_set_default_size(gcast(window), width, height)
        let requested = Size(width: width, height: height)
        let resized = iterateMainContext { size == requested }
        return resized && serverSize == requested && settle()
    }

    /// The window's size as GTK has allocated it.
    public var size: Size { Size(width: gtk_widget_get_width(window), height: gtk_widget_get_height(window)) }

    /// Iterates until eight frames in a row pass without a layout pass (an idle that applies a new
    /// arrangement and the relayout it queues have both run). False if layout is still busy after
    /// five seconds' worth of frames.
    public func settle() -> Bool {
        var lastPasses = layoutPasses
        var quietFrames = 0
        return iterateFrames(300) {
            quietFrames = layoutPasses == lastPasses ? quietFrames + 1 : 0
            lastPasses = layoutPasses
            return quietFrames >= 8
        }
    }

    /// The window's size as the X server has it, proof that a resize really happened.
    public var serverSize: Size {
        let surface = gtk_native_get_surface(gcast(window))
        let display = gdk_x11_display_get_xdisplay(gtk_widget_get_display(window))
        var root: Window = 0
        var x: Int32 = 0, y: Int32 = 0
        var width: UInt32 = 0, height: UInt32 = 0, border: UInt32 = 0, depth: UInt32 = 0
        XGetGeometry(display, gdk_x11_surface_get_xid(surface), &root, &x, &y, &width, &height, &border, &depth)
        return Size(width: Int32(width), height: Int32(height))
    }
}

/// Iterates the default main context for at most `frames` frame ticks (16 ms, a 60 Hz frame clock's
/// pace), asking `done` after each tick; returns whether it said yes. Bounded by ticks, not sleeps:
/// the loop blocks in the main context and handles whatever GTK schedules in between.
@MainActor @discardableResult
public func iterateFrames(_ frames: Int, until done: () -> Bool = { false }) -> Bool {
    var ticks = 0
    let clock = RepeatingTimer(milliseconds: 16) { ticks += 1 }
    defer { clock.cancel() }
    var seen = 0
    while ticks < frames {
        g_main_context_iteration(nil, 1)
        if ticks > seen {
            seen = ticks
            if done() { return true }
        }
    }
    return false
}
