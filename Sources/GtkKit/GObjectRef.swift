import CGtk

/// Owns one strong reference to a GObject and drops it on deinit, so Swift's lifetime rules keep
/// GTK objects alive exactly as long as Swift code holds them. Floating objects (new widgets) are
/// sunk on adoption, so ownership is the same whether or not the widget has been parented yet.
/// Generic over the pointer type the C API uses for the object (`UnsafeMutablePointer<GtkWidget>`,
/// or `OpaquePointer` for interfaces and final classes such as GtkPicture), inferred from `init`.
public final class GObjectRef<Pointer: GObjectPointer> {
    /// The owned object; valid for as long as this reference lives.
    public let pointer: Pointer

    /// Takes over a reference the caller owns (transfer full, or a new floating object such as
    /// `gtk_label_new`'s result): sinks a floating reference, adds none otherwise.
    public init(adopting object: Pointer) {
        if Bool(gboolean: g_object_is_floating(object.rawGObject)) {
            g_object_ref_sink(object.rawGObject)
        }
        pointer = object
    }

    /// Adds a reference of its own to an object the caller merely borrows (transfer none). This is
    /// also the way to hold a toplevel window: GTK owns windows (`gtk_window_new`'s result is not
    /// floating) until `gtk_window_destroy`.
    public init(retaining object: Pointer) {
        g_object_ref_sink(object.rawGObject)
        pointer = object
    }

    deinit {
        g_object_unref(pointer.rawGObject)
    }

    /// The owned object as another GObject pointer type (see `gcast`).
    public func cast<Target: GObjectPointer>(to _: Target.Type = Target.self) -> Target {
        gcast(pointer)
    }
}
