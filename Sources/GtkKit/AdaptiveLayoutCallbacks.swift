import CGtk

// The C side of AdaptiveLayout: a GtkCustomLayout on the host whose callbacks find their
// AdaptiveLayout through the host's qdata and forward to it.

/// Where the host keeps its AdaptiveLayout: unretained (the layout owns the host, not the reverse)
/// and cleared when the layout goes away, after which the host lays out nothing.
private let layoutQuark = g_quark_from_string("lw-adaptive-layout")

/// Installs the custom layout on `host` and points its callbacks at `layout`.
@MainActor
func attachLayout(_ layout: AdaptiveLayout, to host: UnsafeMutablePointer<GtkWidget>) {
    g_object_set_qdata(gcast(host), layoutQuark, Unmanaged.passUnretained(layout).toOpaque())
    gtk_widget_set_layout_manager(host, gtk_custom_layout_new(constantSize, measureHost, allocateHost))
}

/// Unhooks `host` from its layout, which is going away.
@MainActor
func detachLayout(from host: UnsafeMutablePointer<GtkWidget>) {
    g_object_set_qdata(gcast(host), layoutQuark, nil)
}

@MainActor
private func layout(of host: UnsafeMutablePointer<GtkWidget>?) -> AdaptiveLayout? {
    g_object_get_qdata(gcast(host!), layoutQuark).map { Unmanaged<AdaptiveLayout>.fromOpaque($0).takeUnretainedValue() }
}

/// The layout measures without trading width for height: a bar of buttons has a fixed thickness,
/// and the video fills whatever it is given.
private let constantSize: GtkCustomRequestModeFunc = { _ in GTK_SIZE_REQUEST_CONSTANT_SIZE }

private let measureHost: GtkCustomMeasureFunc = { host, orientation, _, minimum, natural, _, _ in
    nonisolated(unsafe) let host = host
    let size = MainActor.assumeIsolated { layout(of: host)?.measure(orientation) }
    guard let size else { return }
    minimum?.pointee = size.minimum
    natural?.pointee = size.natural
}

private let allocateHost: GtkCustomAllocateFunc = { host, width, height, _ in
    nonisolated(unsafe) let host = host
    MainActor.assumeIsolated { layout(of: host)?.allocate(width: width, height: height) }
}
