import CGtk
import GtkKit
import StatusKit
import TestSupport
import XCTest

/// The thumbnails a print file's header gives (a PNG as embedded, a QOI one re-encoded as PNG, a
/// JPEG, a 3MF plate's picture) load in GdkTexture, as the app loads pictures, at the size the
/// header says; shown side by side in a window to be looked at (LAYERWATCH_SHOTS).
final class PrintFileThumbnailTextureTests: XCTestCase {
    override func setUp() {
        AppTestEnvironment.prepare()
    }

    func testThumbnailsLoadAsTextures() throws {
        let folder = try makeTemporaryDirectory()
        let files = [("gcode", "qoi.gcode", ["--qoi", "160x90"]), ("gcode", "jpeg.gcode", ["--jpeg", "120x90"]),
                     ("bgcode", "part.bgcode", ["--png", "100x60", "--qoi", "140x80"]), ("3mf", "plates.3mf", ["--plates", "2"])]
        var thumbnails: [PrintFileThumbnail] = []
        for (command, name, options) in files {
            let url = folder.appendingPathComponent(name)
            try PrintFiles.make(command, at: url, options)
            thumbnails.append(try XCTUnwrap(PrintFileHeader.read(try PrintFile(url: url)).thumbnail, name))
        }
        XCTAssertEqual(thumbnails.map(\.format), [.png, .jpeg, .png, .png])
        try MainActor.assumeIsolated {
            let window = gtk_window_new()!
            defer { gtk_window_destroy(gcast(window)) }
            let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
            var textures: [GObjectRef<OpaquePointer>] = []
            for thumbnail in thumbnails {
                let bytes = thumbnail.image.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count))! }
                defer { g_bytes_unref(bytes) }
                var error: UnsafeMutablePointer<GError>?
                let texture = try XCTUnwrap(gdk_texture_new_from_bytes(bytes, &error), "GdkTexture loads the \(thumbnail.format)")
                textures.append(GObjectRef(adopting: texture))
                XCTAssertEqual([gdk_texture_get_width(texture), gdk_texture_get_height(texture)],
                               [Int32(thumbnail.width), Int32(thumbnail.height)])
                gtk_box_append(gcast(box), gtk_picture_new_for_paintable(texture))
            }
            gtk_window_set_child(gcast(window), box)
            gtk_window_present(gcast(window))
            XCTAssertTrue(iterateMainContext { gtk_widget_get_mapped(window) != 0 })
            _ = iterateMainContext(timeout: 1) { false }  // painted
            ScreenCapture.saveIfAsked(as: "print-file-thumbnails")
        }
    }
}
