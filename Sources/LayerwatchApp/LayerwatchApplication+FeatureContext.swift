import StreamKit

/// The application as the features' context: what the main window holds (the selected tab, the
/// snapshot, stats and fullscreen, closing a tab) it passes on to the window; the rest is its own.
extension LayerwatchApplication: FeatureContext {
    var selectedCamera: Camera? { window?.tabs.selected?.camera }
    var selectedCameraState: SessionState? { window?.tabs.selected?.state }
    var selectedPrinterCameras: [Camera] { window?.tabs.selected?.cameras ?? [] }
    var selectedCameraRecords: Bool { window?.tabs.selected?.session.recording != nil }
    var hasSavedPrinters: Bool { !library.config.printers.isEmpty }
    var isFullscreen: Bool { window?.isFullscreen ?? false }
    var isFarmShown: Bool { window?.isFarmShown ?? false }
    var attentionFirst: Bool { library.config.farm.attentionFirst }
    var canZoom: Bool { zoomTarget != nil }

    func takeSnapshot() { window?.takeSnapshot() }
    func setStatsShown(_ shown: Bool) { window?.setStatsShown(shown) }
    func toggleFullscreen() { window?.toggleFullscreen() }
    func setFullscreen(_ fullscreen: Bool) { window?.setFullscreen(fullscreen) }
    func togglePopOut(_ camera: Camera) { togglePopOut(camera, size: MiniWindow.defaultSize) }
    func stepZoom(in zoomIn: Bool) { zoomTarget?.stepZoom(in: zoomIn) }
    func setZoom(_ zoom: PictureZoom) { zoomTarget?.setZoom(zoom) }
    func reconnectSelected() { window?.tabs.selected?.surface.reconnect() }
    func showCamera(at index: Int) { window?.tabs.selected?.showCamera(at: index) }
    func closeSelectedTab() { window?.tabs.requestCloseSelected() }
    func showAbout() { AppMenu.showAbout(parent: window?.window, version: Installation.version) }
}
