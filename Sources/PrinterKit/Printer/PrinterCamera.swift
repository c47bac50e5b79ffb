import Foundation
import StatusKit
import StreamKit

/// One camera of a printer: a printer has one status endpoint and any number of cameras (a Klipper
/// printer's nozzle and bed cameras, a Bambu printer's own), shown one at a time in its tab and
/// sharing its status, notifications and timelapse. Each keeps its own URL (and so its own
/// password) and how it is mounted.
public struct PrinterCamera: Hashable, Identifiable, Sendable {
    public let id: UUID
    /// What the printer's host calls it ("Nozzle"); empty for a printer's only camera, which needs
    /// no name of its own (see `title(at:)`).
    public var name: String
    /// The stream's URL; nil for a Bambu or Creality printer's own camera, reached from the
    /// printer's address (and a Bambu printer's access code).
    public var url: String?
    /// Where a WebRTC camera's MJPEG is, relative to `url` (camera-streamer's `stream` beside its
    /// `webrtc`): played when WebRTC fails (`StreamSource.withMJPEGFallback`). A Moonraker import
    /// sets it; nil for every other camera.
    public var mjpegFallback: String?
    /// How it is mounted (clockwise quarter turns, then flips); every view shows the picture upright.
    public var rotation: Int
    public var flipHorizontal: Bool
    public var flipVertical: Bool

    public init(id: UUID = UUID(), name: String = "", url: String? = nil, mjpegFallback: String? = nil, rotation: Int = 0,
                flipHorizontal: Bool = false, flipVertical: Bool = false) {
        self.id = id
        self.name = name
        self.url = url
        self.mjpegFallback = mjpegFallback
        self.rotation = rotation
        self.flipHorizontal = flipHorizontal
        self.flipVertical = flipVertical
    }

    /// The most cameras a printer keeps (as many as one import lists): a hand-edited or damaged
    /// file cannot make a tab open thousands of connections.
    static func kept(_ cameras: [PrinterCamera]) -> [PrinterCamera] {
        Array(ListLimit.first(cameras, ListLimit.cameras, of: "cameras of a saved printer"))
    }

    /// The stream to open for it when it has a URL: the URL's, with its MJPEG fallback if it has
    /// one; nil for a Bambu or Creality printer's own camera. Throws `SourceError`.
    func source() throws -> StreamSource? {
        try url.map { try StreamSource.parse($0).withMJPEGFallback(mjpegFallback) }
    }

    /// Whether it is a WebRTC camera that plays its MJPEG when WebRTC fails (for the dialog's list).
    public var hasMJPEGFallback: Bool {
        guard case .webrtc(_, _?)? = try? source() else { return false }
        return true
    }

    /// The own camera of a Bambu or Creality printer (no URL: reached from the printer's address).
    public static func own(id: UUID = UUID()) -> PrinterCamera { PrinterCamera(id: id) }

    /// Its name for menus and file names: its own, else "Camera N" (`index` counts from 0).
    public func title(at index: Int) -> String {
        name.isEmpty ? String(format: tr("Camera %ld"), index + 1) : name
    }
}

extension PrinterCamera: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, name, url, mjpegFallback, rotation, flipHorizontal, flipVertical
    }

    /// A camera needs its id; any other field that is bad takes its default.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let id = try container.decode(UUID.self, forKey: .id)
        let fields = LenientFields(container, owner: "camera \(id.uuidString)")
        self.init(id: id, name: fields.value(.name) ?? "", url: fields.value(.url), mjpegFallback: fields.value(.mjpegFallback),
                  rotation: fields.value(.rotation, as: Int.self, Self.quarterTurns) ?? 0,
                  flipHorizontal: fields.value(.flipHorizontal) ?? false, flipVertical: fields.value(.flipVertical) ?? false)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        if !name.isEmpty { try container.encode(name, forKey: .name) }
        try container.encodeIfPresent(url, forKey: .url)
        try container.encodeIfPresent(mjpegFallback, forKey: .mjpegFallback)
        if rotation != 0 { try container.encode(rotation, forKey: .rotation) }
        if flipHorizontal { try container.encode(true, forKey: .flipHorizontal) }
        if flipVertical { try container.encode(true, forKey: .flipVertical) }
    }

    /// Quarter turns only: anything else a hand-edited file holds is brought to the one below.
    static func quarterTurns(_ degrees: Int) -> Int {
        (((degrees % 360) + 360) % 360) / 90 * 90
    }
}

extension PrinterCamera {
    /// A camera a Klipper, OctoPrint or go2rtc host listed, as the printer keeps it.
    public init(_ found: ImportedCamera) {
        self.init(name: found.name, url: found.url, mjpegFallback: found.mjpegFallback, rotation: found.rotation,
                  flipHorizontal: found.flipHorizontal, flipVertical: found.flipVertical)
    }
}
