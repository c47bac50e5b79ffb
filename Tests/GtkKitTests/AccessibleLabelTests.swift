import CGtk
import CTestAccessible
import GtkKit
import TestSupport
import XCTest

/// The accessible names GtkKit sets, read back through GTK's own test accessibility checks.
/// XCTest on Linux cannot call main-actor test methods, so each test asserts the isolation it
/// already has (tests run on the main thread) with MainActor.assumeIsolated.
final class AccessibleLabelTests: XCTestCase {
    override func setUp() {
        GtkTestEnvironment.prepare()
    }

    func testALabelIsWhatTheWidgetIsCalled() {
        MainActor.assumeIsolated {
            let button = GObjectRef(adopting: gtk_button_new_from_icon_name("camera-photo-symbolic")!)
            XCTAssertFalse(Bool(gboolean: gtk_test_accessible_has_property(button.cast(), GTK_ACCESSIBLE_PROPERTY_LABEL)))

            setAccessibleLabel(button.pointer, "Save Snapshot")

            XCTAssertNil(labelMismatch(button.pointer, "Save Snapshot"))
            XCTAssertEqual(labelMismatch(button.pointer, "Something Else"), "Save Snapshot")

            setAccessibleLabel(button.pointer, "Kamera „Werkstatt“")
            XCTAssertNil(labelMismatch(button.pointer, "Kamera „Werkstatt“"))
        }
    }

    func testAWidgetIsLabelledByItsTitle() {
        MainActor.assumeIsolated {
            let title = GObjectRef(adopting: gtk_label_new("Access code")!)
            let other = GObjectRef(adopting: gtk_label_new("Serial")!)
            let entry = GObjectRef(adopting: gtk_entry_new()!)

            setAccessibleLabel(entry.pointer, labelledBy: title.pointer)

            XCTAssertNil(labelledByMismatch(entry.pointer, title.pointer))
            XCTAssertNotNil(labelledByMismatch(entry.pointer, other.pointer))
        }
    }
}

/// Nil when `widget`'s accessible label is `expected`, else the label it has.
private func labelMismatch(_ widget: UnsafeMutablePointer<GtkWidget>, _ expected: String) -> String? {
    String(takingGLibString: lw_test_accessible_label_mismatch(widget, expected))
}

/// Nil when `widget` is labelled by `label` alone, else what it is labelled by.
private func labelledByMismatch(_ widget: UnsafeMutablePointer<GtkWidget>, _ label: UnsafeMutablePointer<GtkWidget>) -> String? {
    String(takingGLibString: lw_test_accessible_labelled_by_mismatch(widget, label))
}
