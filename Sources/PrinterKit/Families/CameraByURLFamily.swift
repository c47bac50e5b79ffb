import Foundation
import StreamKit

/// A camera by URL (RTSP(S), HTTP MJPEG, a JPEG snapshot, WebRTC) with no printer status: the
/// "family" of printers that are only their cameras.
struct CameraByURLFamily: PrinterFamily {
    let kindNames = ["generic"]

    func displayName(of kind: Printer.Kind) -> String? { nil }

    func printer(from draft: PrinterDraft, name: String, messages: inout [PrinterDraft.Field: String]) -> Printer {
        draft.kept(Printer(id: draft.id, name: name, kind: draft.kind, cameras: draft.checkedCameras(messages: &messages)))
    }
}

extension Printer.Kind {
    /// Any other camera, by URL: RTSP(S), HTTP MJPEG or a JPEG snapshot; no print status.
    public static let generic = Printer.Kind(family: CameraByURLFamily(), name: "generic")
}
