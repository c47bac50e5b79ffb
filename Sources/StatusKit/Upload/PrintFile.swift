import Foundation
import StreamKit

/// A file a user sends to a printer: where it is on disk, the name it takes on the printer, its size
/// and the kind its name says it is. It is read from disk as it is sent, never whole into memory.
public struct PrintFile: Equatable, Sendable {
    /// What a slicer makes, by the file's extension.
    public enum Kind: String, CaseIterable, Sendable {
        /// Text G-code (`.gcode`, `.gco`, `.g`).
        case gcode
        /// Prusa's binary G-code (`.bgcode`).
        case binaryGCode
        /// A sliced 3MF project (`.3mf`, `.gcode.3mf`): Bambu Lab's and Orca's.
        case project3MF
    }

    public let url: URL
    /// The name it is sent under: the file's own.
    public let name: String
    public let size: Int64
    public let kind: Kind

    /// The file at `url`, if it is a readable regular file of a kind a printer prints.
    public init(url: URL) throws(PrintFileProblem) {
        guard let kind = Self.kind(ofName: url.lastPathComponent) else { throw .notAPrintFile }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.int64Value,
              FileManager.default.isReadableFile(atPath: url.path) else { throw .unreadable }
        guard size > 0 else { throw .empty }
        self.url = url
        name = url.lastPathComponent
        self.size = size
        self.kind = kind
    }

    /// The kind a file called `name` is, by its extension (in any case); nil for another file.
    public static func kind(ofName name: String) -> Kind? {
        let name = name.lowercased()
        if name.hasSuffix(".3mf") { return .project3MF }
        if name.hasSuffix(".bgcode") { return .binaryGCode }
        if [".gcode", ".gco", ".g"].contains(where: name.hasSuffix) { return .gcode }
        return nil
    }
}

/// Why a file cannot be sent at all, whatever the printer.
public enum PrintFileProblem: Error, Equatable, Sendable {
    /// Its name is not a G-code, binary G-code or 3MF file's.
    case notAPrintFile
    /// It is missing, a folder, or may not be read.
    case unreadable
    case empty

    /// A sentence for the user.
    public var userMessage: String {
        switch self {
        case .notAPrintFile: return tr("This is not a file a printer prints: choose a G-code, binary G-code or 3MF file.")
        case .unreadable: return tr("The file could not be read.")
        case .empty: return tr("The file is empty.")
        }
    }
}
