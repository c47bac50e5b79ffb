import Foundation
import XCTest

extension XCTestCase {
    /// The POSIX permission bits of the file at `url` (not following a symbolic link).
    func permissions(_ url: URL) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }
}
