import CGtk
import GtkKit
import TestSupport
import XCTest

/// XCTest on Linux cannot call main-actor test methods, so each test asserts the isolation it
/// already has (tests run on the main thread) with MainActor.assumeIsolated.
final class GObjectRefTests: XCTestCase {
    override func setUp() {
        GtkTestEnvironment.prepare()
    }

    func testAdoptingSinksAFloatingWidgetAndReleasingDisposesIt() {
        MainActor.assumeIsolated {
            let label = gtk_label_new("floating")!
            XCTAssertNotEqual(g_object_is_floating(label), 0)
            let watch = DisposalWatch(label)

            var owner: GObjectRef? = GObjectRef(adopting: label)
            XCTAssertEqual(g_object_is_floating(label), 0)
            XCTAssertEqual(referenceCount(label), 1)

            owner = nil
            XCTAssertNil(owner)
            XCTAssertTrue(watch.isDisposed)
        }
    }

    func testAdoptingAFullTransferObjectAddsNoReference() {
        MainActor.assumeIsolated {
            let list = gtk_string_list_new(nil)!
            XCTAssertEqual(g_object_is_floating(list.rawGObject), 0)
            let watch = DisposalWatch(list)

            var owner: GObjectRef? = GObjectRef(adopting: list)
            XCTAssertEqual(referenceCount(list), 1)

            owner = nil
            XCTAssertNil(owner)
            XCTAssertTrue(watch.isDisposed)
        }
    }

    func testRetainingKeepsABorrowedWidgetAliveAfterItsParentLetsGo() {
        MainActor.assumeIsolated {
            let box = GObjectRef(adopting: gtk_box_new(GTK_ORIENTATION_VERTICAL, 0))
            let label = gtk_label_new("child")!
            gtk_box_append(box.cast(), label)
            let watch = DisposalWatch(label)

            var retained: GObjectRef? = GObjectRef(retaining: label)
            XCTAssertEqual(referenceCount(label), 2)
            gtk_box_remove(box.cast(), label)
            XCTAssertFalse(watch.isDisposed)

            retained = nil
            XCTAssertNil(retained)
            XCTAssertTrue(watch.isDisposed)
        }
    }

    func testGcastReachesInterfacesAndSubclasses() {
        MainActor.assumeIsolated {
            let label = GObjectRef(adopting: gtk_label_new("cast")!)
            // GtkAccessible is an interface: it imports as OpaquePointer.
            XCTAssertEqual(gtk_accessible_get_accessible_role(label.cast()), GTK_ACCESSIBLE_ROLE_LABEL)
            // GtkLabel is a final class: its struct is private, so it imports as OpaquePointer too.
            XCTAssertEqual(String(cString: gtk_label_get_text(gcast(label.pointer))), "cast")
            // GtkBox is derivable, its struct is public: it imports as a typed pointer.
            let box = GObjectRef(adopting: gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 7)!)
            XCTAssertEqual(gtk_box_get_spacing(box.cast()), 7)
        }
    }
}

@MainActor
private func referenceCount(_ object: some GObjectPointer) -> guint {
    gcast(object, to: UnsafeMutablePointer<GObject>.self).pointee.ref_count
}
