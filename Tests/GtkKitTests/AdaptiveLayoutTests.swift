import CGtk
import GtkKit
import TestSupport
import XCTest

/// A real camera page in a real window under Xvfb, resized through the X server (no window manager
/// is needed: without one the server applies GTK's resize requests as they are).
///
/// XCTest on Linux cannot call main-actor test methods, so each test asserts the isolation it
/// already has (tests run on the main thread) with MainActor.assumeIsolated.
final class AdaptiveLayoutTests: XCTestCase {
    override func setUp() {
        GtkTestEnvironment.prepare()
    }

    func testWideWindowPutsTheBarBesideTheVideoAndTallWindowBelowIt() {
        MainActor.assumeIsolated {
            let page = CameraPage(width: 600, height: 900)
            defer { page.close() }
            XCTAssertTrue(page.settle())
            XCTAssertEqual(page.layout.arrangement, .below)
            XCTAssertEqual(page.barOrientation, GTK_ORIENTATION_HORIZONTAL)

            XCTAssertTrue(page.resize(width: 1400, height: 600))
            XCTAssertEqual(page.layout.arrangement, .beside)
            XCTAssertEqual(page.barOrientation, GTK_ORIENTATION_VERTICAL)
            XCTAssertEqual(page.barOrigin.x, Double(gtk_widget_get_width(page.video)), "the bar sits right of the video")
            XCTAssertEqual(page.barOrigin.y, 0)

            XCTAssertTrue(page.resize(width: 600, height: 900))
            XCTAssertEqual(page.layout.arrangement, .below)
            XCTAssertEqual(page.barOrientation, GTK_ORIENTATION_HORIZONTAL)
            XCTAssertEqual(page.barOrigin.x, 0)
            XCTAssertEqual(page.barOrigin.y, Double(gtk_widget_get_height(page.video)), "the bar sits under the video")
            XCTAssertEqual(page.arrangements, [.beside, .below])
        }
    }

    func testTwentyResizesMoveOnlyTheBarNeverTheVideo() {
        MainActor.assumeIsolated {
            let page = CameraPage(width: 600, height: 900)
            defer { page.close() }
            XCTAssertTrue(page.settle())
            let video = page.video
            let picture = gtk_overlay_get_child(gcast(video))
            let disposal = DisposalWatch(video)
            var unmaps = 0
            var unrealizes = 0
            connectSignal(video, "unmap") { unmaps += 1 }
            connectSignal(video, "unrealize") { unrealizes += 1 }

            for step in 1...20 {
                let wide = step % 2 == 1
                XCTAssertTrue(wide ? page.resize(width: 1400, height: 600) : page.resize(width: 600, height: 900))
                XCTAssertEqual(page.layout.arrangement, wide ? .beside : .below, "step \(step)")
                XCTAssertEqual(page.barOrientation, wide ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL)
                XCTAssertEqual(gtk_widget_get_parent(video), page.layout.widget)
                XCTAssertEqual(gtk_widget_get_first_child(page.layout.widget), video)
                XCTAssertEqual(gtk_overlay_get_child(gcast(video)), picture)
                XCTAssertNotEqual(gtk_widget_get_mapped(video), 0)
            }

            XCTAssertEqual(page.arrangements.count, 20)
            XCTAssertEqual(unmaps, 0)
            XCTAssertEqual(unrealizes, 0)
            XCTAssertFalse(disposal.isDisposed)
        }
    }

    func testSizesAroundTheCrossoverDoNotFlap() {
        MainActor.assumeIsolated {
            let page = CameraPage(width: 800, height: 700)
            defer { page.close() }
            XCTAssertTrue(page.settle())
            XCTAssertEqual(page.layout.arrangement, .below)

            // Widen in 2 % steps until the bar moves beside the video: the flip point.
            var width = 800.0
            while page.layout.arrangement == .below, width < 1600 {
                width *= 1.02
                XCTAssertTrue(page.resize(width: Int32(width), height: 700))
            }
            XCTAssertEqual(page.arrangements, [.beside], "a steady widening flips exactly once")

            // Nudge ±2 % around it, several times.
            for nudge in [0.98, 1.02, 0.98, 1.02, 0.98, 1.0, 0.98] {
                XCTAssertTrue(page.resize(width: Int32(width * nudge), height: 700))
            }
            XCTAssertEqual(page.arrangements, [.beside], "nudges around the flip point must not flip back")
        }
    }

    func testAllocationWatchReportsTheVideosRealSizeOncePerChange() {
        MainActor.assumeIsolated {
            let page = CameraPage(width: 600, height: 900)
            defer { page.close() }
            XCTAssertTrue(page.settle())
            page.assertReportMatchesVideo()
            XCTAssertEqual(gtk_widget_get_height(page.video) + gtk_widget_get_height(page.bar), page.hostSize.height)

            XCTAssertTrue(page.resize(width: 1400, height: 600))
            page.assertReportMatchesVideo()
            XCTAssertEqual(gtk_widget_get_width(page.video) + gtk_widget_get_width(page.bar), page.hostSize.width)

            XCTAssertTrue(page.resize(width: 1300, height: 650))
            page.assertReportMatchesVideo()

            let reports = page.primaryAllocations
            XCTAssertFalse(zip(reports, reports.dropFirst()).contains { $0 == $1 }, "one report per change: \(reports)")
        }
    }

    func testHiddenBarGivesTheVideoTheWholeHost() {
        MainActor.assumeIsolated {
            let page = CameraPage(width: 1400, height: 600)
            defer { page.close() }
            XCTAssertTrue(page.settle())
            XCTAssertEqual(page.layout.arrangement, .beside)

            gtk_widget_set_visible(page.bar, 0)
            XCTAssertTrue(page.settle())
            XCTAssertTrue(page.videoFillsHost)

            XCTAssertTrue(page.resize(width: 600, height: 900))
            XCTAssertTrue(page.videoFillsHost)

            gtk_widget_set_visible(page.bar, 1)
            XCTAssertTrue(page.settle())
            XCTAssertEqual(page.layout.arrangement, .below)
            XCTAssertEqual(gtk_widget_get_height(page.video) + gtk_widget_get_height(page.bar), page.hostSize.height)
        }
    }

    func testLayoutComesToRestAfterAResize() {
        MainActor.assumeIsolated {
            let page = CameraPage(width: 600, height: 900)
            defer { page.close() }
            XCTAssertTrue(page.settle())
            let passesBefore = page.layoutPasses

            XCTAssertTrue(page.resize(width: 1400, height: 600))
            XCTAssertGreaterThan(page.layoutPasses, passesBefore, "the resize should have been laid out")
            let passes = page.layoutPasses
            let reports = page.primaryAllocations.count

            iterateFrames(60)

            XCTAssertEqual(page.layoutPasses, passes, "nothing may queue another layout once a resize settled")
            XCTAssertEqual(page.primaryAllocations.count, reports)
            XCTAssertEqual(page.arrangements, [.beside])
        }
    }

    func testDestroyingTheWindowAfterTheLayoutWentAwayDisposesHostAndChildren() {
        MainActor.assumeIsolated {
            let window = gtk_window_new()!
            let video = gtk_overlay_new()!
            let bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
            let watches = [DisposalWatch(video), DisposalWatch(bar)]
            weak var weakLayout: AdaptiveLayout?
            let host: UnsafeMutablePointer<GtkWidget> = {
                let layout = AdaptiveLayout(primary: video, secondary: bar)
                weakLayout = layout
                gtk_window_set_child(gcast(window), layout.widget)
                return layout.widget
            }()
            let hostWatch = DisposalWatch(host)
            XCTAssertNil(weakLayout, "nothing but its owner keeps the layout alive")
            XCTAssertFalse(hostWatch.isDisposed, "the window keeps the host")

            gtk_window_destroy(gcast(window))

            XCTAssertTrue(iterateMainContext { hostWatch.isDisposed })
            XCTAssertTrue(watches.allSatisfy(\.isDisposed), "disposing the host unparents and so releases its children")
        }
    }
}

/// What a camera page owner builds: an overlay holding a picture (the video area, primary) and a
/// bar of buttons (secondary) in an AdaptiveLayout, shown in a window. It reacts to the layout the
/// way the owner does, flipping the bar's orientation, and records what the layout reported.
@MainActor
private final class CameraPage {
    let window: UnsafeMutablePointer<GtkWidget> = gtk_window_new()
    let video: UnsafeMutablePointer<GtkWidget> = gtk_overlay_new()
    let bar: UnsafeMutablePointer<GtkWidget> = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)
    let layout: AdaptiveLayout
    private(set) var arrangements: [AdaptiveLayout.Arrangement] = []
    private(set) var primaryAllocations: [Size] = []
    private let allocation = AllocationWatch()
    private var sizer: WindowSizer!

    typealias Size = WindowSizer.Size

    init(width: Int32, height: Int32) {
        gtk_overlay_set_child(gcast(video), gtk_picture_new())
        // Square icon buttons, as in the app: the bar is as thick lying down as standing up.
        for icon in ["camera-photo-symbolic", "view-restore-symbolic", "display-brightness-symbolic"] {
            let button = gtk_button_new_from_icon_name(icon)!
            gtk_widget_set_size_request(button, 40, 40)
            gtk_box_append(gcast(bar), button)
        }
        layout = AdaptiveLayout(primary: video, secondary: bar)
        layout.onArrangementChange = { [unowned self] arrangement in
            arrangements.append(arrangement)
            let orientation = arrangement == .beside ? GTK_ORIENTATION_VERTICAL : GTK_ORIENTATION_HORIZONTAL
            gtk_orientable_set_orientation(gcast(bar), orientation)
        }
        // What the app's camera surface does: an AllocationWatch over the video reports its size.
        gtk_overlay_add_overlay(gcast(video), allocation.widget)
        allocation.onChange = { [unowned self] width, height in
            primaryAllocations.append(Size(width: Int32(width), height: Int32(height)))
        }
        gtk_window_set_default_size(gcast(window), width, height)
        gtk_window_set_child(gcast(window), layout.widget)
        gtk_window_present(gcast(window))
        sizer = WindowSizer(window)
    }

    func close() {
        gtk_window_destroy(gcast(window))
    }

    var barOrientation: GtkOrientation {
        gtk_orientable_get_orientation(gcast(bar))
    }

    var hostSize: Size {
        Size(width: gtk_widget_get_width(layout.widget), height: gtk_widget_get_height(layout.widget))
    }

    var videoSize: Size {
        Size(width: gtk_widget_get_width(video), height: gtk_widget_get_height(video))
    }

    var videoFillsHost: Bool {
        videoSize == hostSize && primaryAllocations.last == hostSize
    }

    /// The bar's top-left corner in the host's coordinates.
    var barOrigin: (x: Double, y: Double) {
        var x = 0.0
        var y = 0.0
        gtk_widget_translate_coordinates(bar, layout.widget, 0, 0, &x, &y)
        return (x, y)
    }

    /// Resizes the window and waits until the new size is applied and layout is quiet.
    func resize(width: Int32, height: Int32) -> Bool {
        sizer.resize(width: width, height: height)
    }

    func settle() -> Bool {
        sizer.settle()
    }

    var layoutPasses: Int { sizer.layoutPasses }

    func assertReportMatchesVideo(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(primaryAllocations.last, videoSize, file: file, line: line)
        XCTAssertGreaterThan(videoSize.width, 0, file: file, line: line)
        XCTAssertGreaterThan(videoSize.height, 0, file: file, line: line)
    }
}
