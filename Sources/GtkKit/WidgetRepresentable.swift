import CGtk

/// GTK's counterpart of SwiftUI's `UIViewRepresentable`: a value describing an imperative GTK
/// widget, whose host calls `makeCoordinator`, then `makeWidget` once per identity, `updateWidget`
/// after make and on every state change, and `dismantleWidget` exactly once when it removes it.
@MainActor
public protocol WidgetRepresentable {
    /// The widget's pointer type as the C API spells it: `UnsafeMutablePointer<GtkWidget>` unless a
    /// more specific one helps update (`OpaquePointer` for final classes such as GtkPicture).
    associatedtype Widget: GObjectPointer = UnsafeMutablePointer<GtkWidget>
    /// Long-lived companion that turns widget callbacks into state changes; `Void` if none is needed.
    associatedtype Coordinator = Void

    /// Called first, once per identity.
    func makeCoordinator() -> Coordinator

    /// Creates the widget, once per identity; may return a new floating widget (the host sinks it).
    func makeWidget(context: RepresentableContext<Self>) -> Widget

    /// Brings the widget in line with this value. Called often: keep it cheap and idempotent, and
    /// never rebuild the widget here.
    func updateWidget(_ widget: Widget, context: RepresentableContext<Self>)

    /// Releases what make attached (stop playback, detach from a session), once, when the host
    /// removes the widget.
    static func dismantleWidget(_ widget: Widget, coordinator: Coordinator)
}

public extension WidgetRepresentable where Coordinator == Void {
    func makeCoordinator() {}
}

/// What make and update get besides the representable's own state.
public struct RepresentableContext<Representable: WidgetRepresentable> {
    public let coordinator: Representable.Coordinator
}
