import CGtk

/// The pointer shapes GTK's C API uses for GObject instances: class types import as typed pointers
/// (`UnsafeMutablePointer<GtkWidget>`), interfaces as `OpaquePointer`, `gpointer` as a raw pointer.
/// Conforming them to one protocol lets a single helper, `gcast`, convert between any two of them.
public protocol GObjectPointer {
    init(rawGObject: UnsafeMutableRawPointer)
    var rawGObject: UnsafeMutableRawPointer { get }
}

extension UnsafeMutablePointer: GObjectPointer {
    public init(rawGObject: UnsafeMutableRawPointer) { self.init(OpaquePointer(rawGObject)) }
    public var rawGObject: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension OpaquePointer: GObjectPointer {
    public init(rawGObject: UnsafeMutableRawPointer) { self.init(rawGObject) }
    public var rawGObject: UnsafeMutableRawPointer { UnsafeMutableRawPointer(self) }
}

extension UnsafeMutableRawPointer: GObjectPointer {
    public init(rawGObject: UnsafeMutableRawPointer) { self = rawGObject }
    public var rawGObject: UnsafeMutableRawPointer { self }
}

/// Reinterprets a GObject instance pointer as another GObject pointer type, the Swift spelling of
/// `GTK_WINDOW (widget)` without the runtime type check: `gtk_window_set_child(gcast(window), child)`.
/// The target type usually comes from context; pass `to:` where it does not.
@inlinable
public func gcast<Target: GObjectPointer>(_ pointer: some GObjectPointer, to _: Target.Type = Target.self) -> Target {
    Target(rawGObject: pointer.rawGObject)
}
