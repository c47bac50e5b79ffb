import CGtk
import CameraKit
import GtkKit
import PrinterKit
@testable import LayerwatchApp
import PrinterKit
import StreamKit
import TestSupport
import XCTest

/// libadwaita on top of the shared GTK setup, and the app's CSS, once per test process.
enum AppTestEnvironment {
    /// Ready for a test: GTK and libadwaita once, no window an earlier test of this process left
    /// behind (a modal dialog or a popover's grab left over would keep the next test's input from
    /// its windows), and the desktop's appearance.
    static func prepare() {
        _ = prepared
        MainActor.assumeIsolated {
            let list = gtk_window_get_toplevels()!
            let left: [UnsafeMutablePointer<GtkWindow>] = (0..<g_list_model_get_n_items(list)).map { index in
                let window: UnsafeMutablePointer<GtkWindow> = gcast(g_list_model_get_item(list, index)!)
                g_object_unref(window.rawGObject)
                return window
            }
            left.forEach { gtk_window_destroy($0) }
            if !left.isEmpty { _ = iterateMainContext(timeout: 1) { false } }
            AppPreferences.apply(.system)  // a test that chose Dark leaves the next one light
        }
    }

    private static let prepared: Void = {
        GtkTestEnvironment.prepare()
        MainActor.assumeIsolated {
            adw_init()
            AppStyle.install()
        }
    }()
}

/// A real toplevel window showing one printer page, sized like a user would.
@MainActor
final class PageWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    let page: PrinterPage

    init(name: String, session: StreamSession, width: Int32 = 800, height: Int32 = 600,
         orientation: PictureOrientation = .upright) {
        var camera = Camera(name: name, source: session.source)
        camera.orientation = orientation
        page = PrinterPage(printer: PrinterCameras(camera: camera)) { _ in session }
        window = gtk_window_new()
        gtk_window_set_default_size(gcast(window), width, height)
        gtk_window_set_child(gcast(window), page.widget)
        connectSignal(window, "destroy") { [page] in page.dismantle() }
        gtk_window_present(gcast(window))
    }

    func close() {
        gtk_window_destroy(gcast(window))
    }
}

/// Pixels of a widget as GTK renders it (through the window's own renderer), for asserting that
/// decoded frames really reach the screen.
struct RenderedImage {
    let width: Int
    let height: Int
    private let pixels: [UInt8]

    @MainActor
    init?(of widget: UnsafeMutablePointer<GtkWidget>) {
        let width = gtk_widget_get_width(widget), height = gtk_widget_get_height(widget)
        guard width > 0, height > 0, let native = gtk_widget_get_native(widget),
              let renderer = gtk_native_get_renderer(native) else { return nil }
        let paintable = gtk_widget_paintable_new(widget)!
        defer { g_object_unref(paintable.rawGObject) }
        let snapshot = gtk_snapshot_new()!
        gdk_paintable_snapshot(paintable, gcast(snapshot), Double(width), Double(height))
        guard let node = gtk_snapshot_free_to_node(snapshot) else { return nil }
        defer { gsk_render_node_unref(node) }
        var viewport = graphene_rect_t(origin: graphene_point_t(x: 0, y: 0),
                                       size: graphene_size_t(width: Float(width), height: Float(height)))
        let texture = gsk_renderer_render_texture(renderer, node, &viewport)!
        defer { g_object_unref(texture.rawGObject) }
        self.init(texture: texture)
    }

    /// The pixels of `texture` (a rendering, a PNG read back).
    init(texture: OpaquePointer) {
        let textureWidth = Int(gdk_texture_get_width(texture)), textureHeight = Int(gdk_texture_get_height(texture))
        var pixels = [UInt8](repeating: 0, count: textureWidth * textureHeight * 4)
        gdk_texture_download(texture, &pixels, gsize(textureWidth * 4))
        self.width = textureWidth
        self.height = textureHeight
        self.pixels = pixels
    }

    /// Red, green, blue at a pixel (GDK downloads native-endian ARGB32: bytes B, G, R, A).
    func rgb(x: Int, y: Int) -> (r: Int, g: Int, b: Int) {
        let offset = (y * width + x) * 4
        return (Int(pixels[offset + 2]), Int(pixels[offset + 1]), Int(pixels[offset]))
    }

    /// The SMPTE bar (grey, yellow, cyan, green, magenta, red, blue) whose colour the pixel has,
    /// channels either lit or dark; nil for a colour between (a blend of two bars).
    func barName(x: Int, y: Int) -> String? {
        let pixel = rgb(x: x, y: y)
        let (r, g, b) = (pixel.r > 120, pixel.g > 120, pixel.b > 120)
        let low = (pixel.r < 60 || r, pixel.g < 60 || g, pixel.b < 60 || b)
        guard low == (true, true, true) else { return nil }
        switch (r, g, b) {
        case (true, true, true): return "grey"
        case (true, true, false): return "yellow"
        case (false, true, true): return "cyan"
        case (false, true, false): return "green"
        case (true, false, true): return "magenta"
        case (true, false, false): return "red"
        case (false, false, true): return "blue"
        default: return nil
        }
    }

    /// The bar (`barName`) at (x, y), fractions of a picture `aspect` wide for 1 high drawn in
    /// this image as a camera's GtkPicture draws it: contain fit, centred.
    func barName(atFraction x: Double, _ y: Double, ofPictureWithAspect aspect: Double) -> String? {
        let shownWidth = min(Double(width), Double(height) * aspect), shownHeight = shownWidth / aspect
        let left = (Double(width) - shownWidth) / 2, top = (Double(height) - shownHeight) / 2
        return barName(x: Int(left + x * shownWidth), y: Int(top + y * shownHeight))
    }
}

extension XCTestCase {
    /// A new session for `url`, stopped when the test ends, its failures worded as the app's sessions
    /// word them (its printer family's terms).
    func makeSession(_ url: String, options: SessionOptions = SessionOptions()) throws -> StreamSession {
        let source = try StreamSource.parse(url)
        let session = StreamSession(source: source, options: options, terms: Printer.cameraTerms(of: source))
        addTeardownBlock { session.stop() }
        return session
    }
}

/// The loopback port the discovery of `app`'s Add Printer `dialog` listens on (the tests' app
/// listens on 127.0.0.1 only); when it does not listen, the dialog is closed and the test skipped.
@MainActor
func discoveryPort(of app: LayerwatchApplication, closing dialog: PrinterDialog) throws -> UInt16 {
    guard case .listening(let ports, _)? = app.editor.discovery?.state, let port = ports.first else {
        gtk_window_destroy(gcast(dialog.window))
        throw XCTSkip("discovery is not listening: \(String(describing: app.editor.discovery?.state))")
    }
    return port
}

/// The printer dialog, opened as the user opens it: Add Printer, or the one that edits `printer`.
@MainActor
func printerDialog(of app: LayerwatchApplication, editing printer: Printer? = nil) throws -> PrinterDialog {
    app.showDialog(editing: printer)
    return try XCTUnwrap(app.editor.openDialog)
}

/// What most dialog tests start with: the app started on `store` and its printer dialog opened
/// (Add Printer, or the one that edits `printer`). `body` runs on the main actor with the app, its
/// main window and the dialog; the main window is destroyed after.
func withPrinterDialog(store: ConfigStore, editing printer: Printer? = nil,
                       _ body: @MainActor (LayerwatchApplication, MainWindow, PrinterDialog) throws -> Void) throws {
    try MainActor.assumeIsolated {
        let (app, window) = try startApp(store: store)
        defer { gtk_window_destroy(gcast(window.window)) }
        try body(app, window, try printerDialog(of: app, editing: printer))
    }
}

/// The same on the config in `directory`, without keyring (as `startApp(in:)`).
func withPrinterDialog(in directory: URL, editing printer: Printer? = nil,
                       _ body: @MainActor (LayerwatchApplication, MainWindow, PrinterDialog) throws -> Void) throws {
    try withPrinterDialog(store: ConfigStore(directory: directory, secrets: nil), editing: printer, body)
}

extension PrinterDialog {
    /// Chooses `kind` (when given) and types the printer's name, address, port and code or key
    /// (those given), in that order, as a user fills the form in.
    func fill(_ kind: Printer.Kind? = nil, name: String, host: String, port: Int? = nil, code: String? = nil) {
        if let kind { selectKind(kind) }
        self.name.text = name
        self.host.text = host
        if let port { apiPort.text = "\(port)" }
        if let code { accessCode.text = code }
    }
}

/// The text of every toast shown in `window`, as the user reads it.
@MainActor
func toastTitles(in window: UnsafeMutablePointer<GtkWidget>) -> [String] {
    descendants(of: window).filter { String(cString: gtk_widget_get_css_name($0)) == "toast" }.flatMap { toast in
        descendants(of: toast).filter { Bool(gboolean: gtk_widget_has_css_class($0, "heading")) }
            .map { String(cString: gtk_label_get_text(gcast($0))) }
    }
}

/// The status strips of `page`'s printer in its three views — the tab, its farm tile and its mini
/// window, popped out here (the caller closes it) — for tests that check all three agree.
@MainActor
func statusStripsEverywhere(of page: PrinterPage, in app: LayerwatchApplication,
                            window: MainWindow) throws -> (strips: [StatusStrip], mini: MiniWindow) {
    app.togglePopOut(page.camera!)
    let mini = try XCTUnwrap(app.miniWindows[page.printerID])
    let tile = try XCTUnwrap(window.farm.tile(id: page.printerID))
    return ([page.status.strip, tile.status.strip, mini.status.strip], mini)
}

/// The labels of `menu`'s items.
@MainActor
func menuLabels(_ menu: UnsafeMutablePointer<GMenuModel>?) -> [String] {
    guard let menu else { return [] }
    return (0..<g_menu_model_get_n_items(menu)).compactMap { index in
        guard let value = g_menu_model_get_item_attribute_value(menu, index, G_MENU_ATTRIBUTE_LABEL, nil) else { return nil }
        defer { g_variant_unref(value) }
        return String(cString: g_variant_get_string(value, nil))
    }
}

/// The action an item of `menu` activates.
@MainActor
func menuAction(_ menu: UnsafeMutablePointer<GMenuModel>, at index: Int32) -> String {
    guard let value = g_menu_model_get_item_attribute_value(menu, index, "action", nil) else { return "" }
    defer { g_variant_unref(value) }
    return String(cString: g_variant_get_string(value, nil))
}

extension MainWindow {
    /// Activates `action` ("camera.snapshot") from the window, as its keys do; false where the
    /// window finds no such action.
    @discardableResult
    func activate(_ action: String) -> Bool {
        Bool(gboolean: gtk_widget_activate_action_variant(window, action, nil))
    }
}

extension PrinterPage {
    /// Whether its picture's action `name` (`camera.NAME`) can be used now; false without it.
    func isPictureActionEnabled(_ name: String) -> Bool {
        guard let group = cameraActions, let action = g_action_map_lookup_action(gcast(group.pointer), name) else { return false }
        return Bool(gboolean: g_action_get_enabled(action))
    }
}
