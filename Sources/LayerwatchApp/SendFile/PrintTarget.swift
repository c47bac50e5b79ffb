import CameraKit
import Foundation
import StreamKit

/// A printer a file is sent to: its id and name, and the session of the camera its views show
/// (nil without a camera), whose frames the confirmation shows on a surface of its own — the
/// printer's one connection, never a second.
struct PrintTarget {
    let printerID: UUID
    let name: String
    let camera: Camera?
    let session: StreamSession?
}
