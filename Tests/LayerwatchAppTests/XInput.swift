import CGtk
import Foundation
import GtkKit

/// Real key presses for a window: activates it and types through XTEST.
enum Keyboard {
    static func press(_ keys: String, window: UInt) -> Int32 {
        xdotool(["windowactivate", "--sync", String(window), "key", "--clearmodifiers", keys])
    }
}

/// The real pointer over a widget, through XTEST: moves, wheel clicks, drags and double-clicks at
/// points of the widget, wherever its window is.
@MainActor
struct Pointer {
    let widget: UnsafeMutablePointer<GtkWidget>

    /// The widget's window on the X server, and where the widget's (x, y) is in it.
    private func place(_ x: Double, _ y: Double) -> (window: String, x: String, y: String)? {
        guard let native = gtk_widget_get_native(widget), let surface = gtk_native_get_surface(native) else { return nil }
        var point = graphene_point_t()
        var from = graphene_point_t(x: Float(x), y: Float(y))
        guard gtk_widget_compute_point(widget, gcast(native), &from, &point) != 0 else { return nil }
        var offsetX = 0.0, offsetY = 0.0
        gtk_native_get_surface_transform(native, &offsetX, &offsetY)
        let xid = gdk_x11_surface_get_xid(surface)
        return (String(xid), String(Int((Double(point.x) + offsetX).rounded())), String(Int((Double(point.y) + offsetY).rounded())))
    }

    /// Moves the pointer to (x, y) of the widget, then does `then` (xdotool commands: "click 4").
    func at(_ x: Double, _ y: Double, then commands: [String] = []) -> Int32 {
        guard let place = place(x, y) else { return -1 }
        return xdotool(["windowactivate", "--sync", place.window, "mousemove", "--sync", "--window", place.window, place.x, place.y] + commands)
    }

    /// Moves the pointer to (x, y) of the widget without activating its window (a drag under way
    /// keeps its grab), then does `then` ("mouseup 1").
    func move(to x: Double, _ y: Double, then commands: [String] = []) -> Int32 {
        guard let place = place(x, y) else { return -1 }
        return xdotool(["mousemove", "--sync", "--window", place.window, place.x, place.y] + commands)
    }

    /// Drags with the first button from (x, y) of the widget by (dx, dy), in steps.
    func drag(from x: Double, _ y: Double, by dx: Double, _ dy: Double) -> Int32 {
        let steps = 4
        var commands = ["mousedown", "1"]
        for _ in 0..<steps {
            commands += ["mousemove_relative", "--sync", "--", String(Int(dx) / steps), String(Int(dy) / steps), "sleep", "0.05"]
        }
        return at(x, y, then: commands + ["mouseup", "1"])
    }
}

/// Runs xdotool with `arguments`; its exit status (-1 when it could not run).
private func xdotool(_ arguments: [String]) -> Int32 {
    let xdotool = Process()
    xdotool.executableURL = URL(fileURLWithPath: "/usr/bin/xdotool")
    xdotool.arguments = arguments
    guard (try? xdotool.run()) != nil else { return -1 }
    xdotool.waitUntilExit()
    return xdotool.terminationStatus
}

/// An X window moved as the user drags it: xdotool asks the window manager to put it at (x, y).
enum XWindow {
    static func move(_ window: UInt, x: Int, y: Int) -> Int32 {
        xdotool(["windowmove", "--sync", String(window), String(x), String(y)])
    }
}
