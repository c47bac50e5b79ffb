import Foundation

/// What a print file says about itself, read before it is sent: the slicer's estimate of the print
/// time, the filament, the slicer, its largest thumbnail and, for a 3MF project, its plates. Only
/// the few places that hold these are read (a text G-code's head and tail, a binary G-code's blocks
/// before its G-code, a 3MF's directory and small entries), in bounded memory whatever the file's
/// size; a file that says nothing, or lies, gives an empty header, never an error.
public struct PrintFileHeader: Equatable, Sendable {
    /// The slicer that made the file, as it names itself (`PrusaSlicer`, `2.7.1`).
    public struct Slicer: Equatable, Sendable {
        public let name: String
        public let version: String?

        public init(name: String, version: String?) {
            self.name = name
            self.version = version
        }
    }

    /// One plate of a 3MF project (Bambu Studio's, OrcaSlicer's), with what the project says of it.
    public struct Plate: Equatable, Sendable {
        /// Its number, from 1, as the slicer and the printer's `project_file` command count them.
        public let number: Int
        /// It has its G-code in the project (`Metadata/plate_N.gcode`): a printer can print it.
        public var isSliced = false
        public var printSeconds: Int?
        public var filamentMillimetres: Double?
        public var filamentGrams: Double?
        public var objectCount: Int?
        public var thumbnail: PrintFileThumbnail?

        public init(number: Int) {
            self.number = number
        }
    }

    /// The slicer's estimate of the whole print, in seconds.
    public var printSeconds: Int?
    /// The filament the print uses, by length (mm) and by weight (g), as far as the slicer says.
    public var filamentMillimetres: Double?
    public var filamentGrams: Double?
    public var slicer: Slicer?
    /// The largest picture the file carries.
    public var thumbnail: PrintFileThumbnail?
    /// In millimetres.
    public var layerHeight: Double?
    public var layerCount: Int?
    public var objectCount: Int?
    /// A 3MF project's plates, by number; empty for G-code. The header's own time, filament,
    /// thumbnail and object count are those of its first sliced plate (its first plate when none
    /// is), the one a printer is sent unless another is chosen.
    public var plates: [Plate] = []
    /// A 3MF project with no sliced plate (no `Metadata/plate_N.gcode` in it): a slicer's saved
    /// project, which no printer prints as it is.
    public var isUnslicedProject = false

    public init() {}

    /// It says nothing at all.
    public var isEmpty: Bool { self == PrintFileHeader() }

    /// What `file` says about itself; an empty header when it cannot be read or says nothing. It
    /// reads the disk (a few hundred KiB at most): call it off the main loop.
    public static func read(_ file: PrintFile) -> PrintFileHeader {
        guard let bytes = PrintFileBytes(url: file.url) else { return PrintFileHeader() }
        switch file.kind {
        case .gcode: return GCodeTextHeader.read(bytes)
        case .binaryGCode: return BinaryGCodeHeader.read(bytes)
        case .project3MF: return Project3MFHeader.read(bytes)
        }
    }
}
