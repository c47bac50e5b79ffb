import Foundation

/// A picture a slicer put in a print file, as the PNG or JPEG bytes the app loads (a QOI picture
/// is re-encoded as PNG when read), with the size its own header declares. Bytes that are no such
/// picture, or declare a size past `JobThumbnail.maximumSide`, make none.
public struct PrintFileThumbnail: Equatable, Sendable {
    public enum Format: String, Sendable {
        case png
        case jpeg
    }

    public let format: Format
    public let image: Data
    public let width: Int
    public let height: Int

    /// The picture in `bytes`, by its signature (whatever the file labelled it), if it is one.
    public init?(encoded bytes: [UInt8]) {
        guard let size = JobThumbnail.pictureSize(of: bytes) else { return nil }
        format = bytes[0] == 0x89 ? .png : .jpeg
        image = Data(bytes)
        width = size.width
        height = size.height
    }

    var pixels: Int { width * height }
}
