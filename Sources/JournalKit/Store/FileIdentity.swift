import Foundation

/// Which file a path names, by device and inode: a journal another process set aside or replaced
/// is another file at the same path, and a connection still open on the old one would write where
/// nobody reads.
struct FileIdentity: Equatable {
    let device: Int
    let inode: Int

    /// The file at `url`; nil when there is none.
    init?(of url: URL) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path),
              let device = (attributes[.systemNumber] as? NSNumber)?.intValue,
              let inode = (attributes[.systemFileNumber] as? NSNumber)?.intValue else { return nil }
        self.device = device
        self.inode = inode
    }
}
