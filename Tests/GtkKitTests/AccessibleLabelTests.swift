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

    func testAWidgetIsDescribedByItsHintAndError() {
        MainActor.assumeIsolated {
            let hint = GObjectRef(adopting: gtk_label_new("On the printer: Settings → WLAN.")!)
            let error = GObjectRef(adopting: gtk_label_new("Rejected.")!)
            let other = GObjectRef(adopting: gtk_label_new("Serial")!)
            let entry = GObjectRef(adopting: gtk_entry_new()!)

            setAccessibleDescription(entry.pointer, describedBy: hint.pointer, and: error.pointer)

            XCTAssertNil(describedByMismatch(entry.pointer, hint.pointer, error.pointer))
            XCTAssertNotNil(describedByMismatch(entry.pointer, hint.pointer, other.pointer))
        }
    }
}

/// Nil when `widget`'s accessible label is `expected`, else the label it has.
private func labelMismatch(_ widget: UnsafeMutablePointer<GtkWidget>, _ expected: String) -> String? {
    String(takingGLibString: lw_test_accessible_label_mismatch(widget, expected))
}

/// Nil when `widget` is described by `first` and `second`, else what it is described by.
private func describedByMismatch(_ widget: UnsafeMutablePointer<GtkWidget>, _ first: UnsafeMutablePointer<GtkWidget>,
                                 _ second: UnsafeMutablePointer<GtkWidget>) -> String? {
    String(takingGLibString: lw_test_accessible_described_by_mismatch(widget, first, second))
}
