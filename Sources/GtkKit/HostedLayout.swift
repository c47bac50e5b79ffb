import CGtk

// The C side of the layouts that place their host's children themselves (AdaptiveLayout, TileGrid):
// a GtkCustomLayout on an LwLayoutHost whose callbacks find their layout object through the host's
// qdata and forward to it.

/// A layout object that measures and places the children of its host widget.
@MainActor
protocol HostedLayout: AnyObject {
    /// Whether the host trades width for height (`GTK_SIZE_REQUEST_HEIGHT_FOR_WIDTH`) or not.
    var requestMode: GtkSizeRequestMode { get }
    /// The host's minimum and natural size along `orientation`, given `forSize` across it (-1: none).
    func measure(_ orientation: GtkOrientation, forSize: Int32) -> (minimum: Int32, natural: Int32)
    /// Places the children in a `width`×`height` host.
    func allocate(width: Int32, height: Int32)
}

/// Where the host keeps its layout: unretained (the layout owns the host, not the reverse) and
/// cleared when the layout goes away, after which the host lays out nothing.
private let layoutQuark = g_quark_from_string("lw-hosted-layout")

/// Installs the custom layout on `host` and points its callbacks at `layout`.
@MainActor
func attachLayout(_ layout: some HostedLayout, to host: UnsafeMutablePointer<GtkWidget>) {
    let box = Unmanaged.passUnretained(layout as AnyObject).toOpaque()
    g_object_set_qdata(gcast(host), layoutQuark, box)
    gtk_widget_set_layout_manager(host, gtk_custom_layout_new(requestMode, measureHost, allocateHost))
}

/// Unhooks `host` from its layout, which is going away.
@MainActor
func detachLayout(from host: UnsafeMutablePointer<GtkWidget>) {
    g_object_set_qdata(gcast(host), layoutQuark, nil)
}

@MainActor
private func layout(of host: UnsafeMutablePointer<GtkWidget>?) -> (any HostedLayout)? {
    g_object_get_qdata(gcast(host!), layoutQuark).map { Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue() as? any HostedLayout } ?? nil
}

private let requestMode: GtkCustomRequestModeFunc = { host in
    nonisolated(unsafe) let host = host
    return MainActor.assumeIsolated { layout(of: host)?.requestMode ?? GTK_SIZE_REQUEST_CONSTANT_SIZE }
}

private let measureHost: GtkCustomMeasureFunc = { host, orientation, forSize, minimum, natural, _, _ in
    nonisolated(unsafe) let host = host
    let size = MainActor.assumeIsolated { layout(of: host)?.measure(orientation, forSize: forSize) }
    guard let size else { return }
    minimum?.pointee = size.minimum
    natural?.pointee = size.natural
}

private let allocateHost: GtkCustomAllocateFunc = { host, width, height, _ in
    nonisolated(unsafe) let host = host
    MainActor.assumeIsolated { layout(of: host)?.allocate(width: width, height: height) }
}

/// Measures `child` along `orientation` for `forSize` across it (-1: unconstrained).
@MainActor
func measure(_ child: UnsafeMutablePointer<GtkWidget>, _ orientation: GtkOrientation,
             forSize: Int32 = -1) -> (minimum: Int32, natural: Int32) {
    var minimum: Int32 = 0
    var natural: Int32 = 0
    gtk_widget_measure(child, orientation, forSize, &minimum, &natural, nil, nil)
    return (minimum, natural)
}

/// Gives `child` the rectangle (negative sizes become 0).
@MainActor
func place(_ child: UnsafeMutablePointer<GtkWidget>, x: Int32, y: Int32, width: Int32, height: Int32) {
    var allocation = GtkAllocation(x: x, y: y, width: max(width, 0), height: max(height, 0))
    gtk_widget_size_allocate(child, &allocation, -1)
}
