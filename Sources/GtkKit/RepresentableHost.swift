import CGtk

/// Drives one WidgetRepresentable through its lifecycle for one stable identity: make on creation,
/// update whenever told the state changed, dismantle exactly once when its owner takes the view
/// down. Dismantling is deterministic, never left to deinit. The host owns a strong reference to
/// the widget from make until dismantle, so embedding or removing the widget elsewhere never
/// destroys it behind the representable's back.
@MainActor
public final class RepresentableHost<ID: Hashable, Representable: WidgetRepresentable> {
    /// The identity this host was made for; state for another identity needs another host.
    public let id: ID

    private struct Mounted {
        let context: RepresentableContext<Representable>
        let widget: GObjectRef<Representable.Widget>
    }

    private var mounted: Mounted?
    /// How many times `updateWidget` ran, the one after make included: what a view's owner, and its
    /// tests, read to see that state changes reach the widget without rebuilding it.
    public private(set) var updateCount = 0
    /// How many times `dismantleWidget` ran: at most once.
    public private(set) var dismantleCount = 0

    /// Makes the coordinator, then the widget, then applies the initial state with one update.
    public init(id: ID, _ representable: Representable) {
        self.id = id
        let context = RepresentableContext<Representable>(coordinator: representable.makeCoordinator())
        let widget = GObjectRef(adopting: representable.makeWidget(context: context))
        mounted = Mounted(context: context, widget: widget)
        representable.updateWidget(widget.pointer, context: context)
        updateCount = 1
    }

    /// The widget to embed in a container; nil once dismantled. The caller removes it from its
    /// parent when it takes the host down; the host only releases its own reference.
    public var widget: UnsafeMutablePointer<GtkWidget>? {
        mounted.map { gcast($0.widget.pointer) }
    }

    /// The coordinator, the representable's proxy for what callers may ask of the widget (take a
    /// snapshot, say); nil once dismantled.
    public var coordinator: Representable.Coordinator? {
        mounted?.context.coordinator
    }

    public var isDismantled: Bool {
        mounted == nil
    }

    /// Lets the new state's representable apply it to the widget; ignored after dismantle, so late
    /// state changes for a removed view are harmless.
    public func update(_ representable: Representable) {
        guard let mounted else { return }
        representable.updateWidget(mounted.widget.pointer, context: mounted.context)
        updateCount += 1
    }

    /// Calls `dismantleWidget` and releases the widget and coordinator. Only the first call does
    /// anything.
    public func dismantle() {
        guard let mounted else { return }
        self.mounted = nil
        Representable.dismantleWidget(mounted.widget.pointer, coordinator: mounted.context.coordinator)
        dismantleCount += 1
    }
}
