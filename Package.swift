// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Layerwatch",
    products: [
        .executable(name: "layerwatch", targets: ["Layerwatch"]),
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
            pkgConfig: "gtk4",
            providers: [.apt(["libgtk-4-dev"])]
        ),
        .target(name: "StreamKit", dependencies: ["CFFmpeg"]),
        .target(name: "GtkKit", dependencies: ["CGtk"]),
        .target(name: "PrinterKit", dependencies: ["StreamKit"]),
        .executableTarget(
            name: "Layerwatch",
            dependencies: [
                "StreamKit", "PrinterKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "TestSupport", dependencies: ["StreamKit"], path: "Tests/TestSupport"),
        .testTarget(name: "StreamKitTests", dependencies: ["StreamKit", "TestSupport"]),
        .testTarget(name: "GtkKitTests", dependencies: ["GtkKit"]),
        .testTarget(name: "PrinterKitTests", dependencies: ["PrinterKit", "StreamKit"]),
        .testTarget(name: "LayerwatchTests", dependencies: ["TestSupport"]),
    ],
    swiftLanguageModes: [.v5]
)
