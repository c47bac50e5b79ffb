// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Layerwatch",
    products: [
        .executable(name: "layerwatch", targets: ["Layerwatch"]),
        .executable(name: "layerwatch-bench", targets: ["LayerwatchBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libswscale libavutil",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libavutil-dev"])]
        ),
        .systemLibrary(
            name: "CGtk",
            pkgConfig: "gtk4 libadwaita-1",
            providers: [.apt(["libgtk-4-dev", "libadwaita-1-dev"])]
        ),
        .systemLibrary(
            name: "CSecret",
            pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]
        ),
        // SQLite: the print journal's database (JournalKit).
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // zlib: the deflate streams inside print files (binary G-code's metadata, a 3MF's entries)
        // and the CRC-32 that checks them, for StatusKit's print file header.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev", "libssl-dev"])]
        ),
        // libsoup 3: the WebSocket client of the Creality status connection (handshake, frames,
        // pings), on a GMainContext the status thread iterates.
        .systemLibrary(
            name: "CSoup",
            pkgConfig: "libsoup-3.0",
            providers: [.apt(["libsoup-3.0-dev"])]
        ),
        .systemLibrary(
            name: "CGStreamer",
            pkgConfig: "gstreamer-1.0 gstreamer-webrtc-1.0 gstreamer-sdp-1.0 gstreamer-app-1.0",
            providers: [.apt(["libgstreamer1.0-dev", "libgstreamer-plugins-base1.0-dev", "libgstreamer-plugins-bad1.0-dev"])]
        ),
        // webrtcbin's signals, promises and variadic calls, which Swift cannot call, behind a small
        // C API for StreamKit's WebRTC source; its DTLS certificate made with OpenSSL's libcrypto.
        .target(name: "CWebRTC", dependencies: ["CGStreamer"], linkerSettings: [.linkedLibrary("crypto")]),
        // Layerwatch's C over GTK: GObject subclasses (a paintable, a layout host), X11 requests GTK 4
        // has no API for, and wrappers for the variadic calls and macros Swift cannot import.
        .target(name: "CLayerwatch", dependencies: ["CGtk"], linkerSettings: [.linkedLibrary("X11")]),
        // Pixel loops the debug build would leave unoptimised (17× slower at -O0), so always -O2.
        .target(name: "CPixels", cSettings: [.unsafeFlags(["-O2"])]),
        // The guard under libsoup's WebSocket reads (a GIO stream reading the frame headers, and the
        // GProxy that puts it there), GObject subclasses Swift cannot write.
        .target(name: "CWebSocketGuard", dependencies: ["CSoup"]),
        .target(name: "StreamKit", dependencies: ["CFFmpeg", "CPixels", "CWebRTC"]),
        .target(name: "GtkKit", dependencies: ["CGtk", "CLayerwatch"]),
        // Printers' live status (Bambu MQTT, Moonraker, OctoPrint, Creality's websocket): GTK-free, one client per printer.
        .target(name: "StatusKit", dependencies: ["StreamKit", "CMosquitto", "CSoup", "CWebSocketGuard", "CZlib"]),
        .target(name: "PrinterKit", dependencies: ["StreamKit", "StatusKit", "CSecret"]),
        // The print journal: every print a printer's status showed (start, pauses, alerts, end), kept
        // in SQLite off the main loop. GTK-free, for the app, its background stay and the CLI.
        .target(name: "JournalKit", dependencies: ["CSQLite", "StatusKit", "PrinterKit", "StreamKit"]),
        // One camera shown: the picture, its frame path, zoom, orientation and overlays. Knows nothing
        // of printers or their status (ModuleBoundaryTests keeps it so); the app adds those.
        .target(name: "JournalSamples", dependencies: ["JournalKit", "StreamKit"]),
        .target(name: "CameraKit", dependencies: ["StreamKit", "GtkKit", "CGtk", "CLayerwatch"]),
        .target(name: "LayerwatchApp", dependencies: ["StreamKit", "GtkKit", "CameraKit", "PrinterKit", "StatusKit", "JournalKit", "CLayerwatch"]),
        .executableTarget(
            name: "Layerwatch",
            dependencies: [
                "LayerwatchApp", "StreamKit", "PrinterKit", "StatusKit", "JournalKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The screen bench's reads of the X server's framebuffer (XGetImage, MIT-SHM for whole
        // screens), Xlib kept out of Swift.
        .target(name: "CXImage", linkerSettings: [.linkedLibrary("X11"), .linkedLibrary("Xext")]),
        .executableTarget(name: "LayerwatchBench", dependencies: ["StreamKit", "LayerwatchApp", "JournalKit", "JournalSamples", "CameraKit", "GtkKit", "CGtk", "PrinterKit", "StatusKit", "CXImage"]),
        .target(name: "TestSupport", dependencies: ["StreamKit", "GtkKit", "CGtk"], path: "Tests/TestSupport"),
        .testTarget(name: "StreamKitTests", dependencies: ["StreamKit", "CFFmpeg", "CPixels", "TestSupport"]),
        // GTK's test accessibility checks, variadic C that Swift cannot call, for the GTK tests.
        .target(name: "CTestAccessible", dependencies: ["CGtk"], path: "Tests/CTestAccessible"),
        .testTarget(name: "GtkKitTests", dependencies: ["GtkKit", "TestSupport", "CTestAccessible"]),
        .testTarget(name: "PrinterKitTests", dependencies: ["PrinterKit", "StreamKit", "TestSupport"]),
        .testTarget(name: "StatusKitTests", dependencies: ["StatusKit", "StreamKit", "TestSupport"]),
        .testTarget(name: "JournalKitTests", dependencies: ["JournalKit", "StatusKit", "CSQLite", "TestSupport"]),
        .testTarget(name: "CameraKitTests", dependencies: ["CameraKit", "StreamKit"]),
        .testTarget(name: "LayerwatchTests", dependencies: ["JournalKit", "StatusKit", "TestSupport"]),
        .testTarget(name: "LayerwatchAppTests", dependencies: ["LayerwatchApp", "JournalKit", "JournalSamples", "CameraKit", "GtkKit", "StreamKit", "PrinterKit", "TestSupport"]),
    ],
    swiftLanguageModes: [.v5]
)
