import Foundation
import TestSupport
import XCTest

extension XCTestCase {
    /// The POSIX permission bits of the file at `url` (not following a symbolic link).
    func permissions(_ url: URL) throws -> Int {
        try XCTUnwrap(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    /// A new folder so deep that its printers.json fits in PATH_MAX (4096) but no
    /// `printers.json.broken-…` name beside it does: nothing can be kept aside there.
    func makeFolderTooDeepForACopy() throws -> URL {
        var deep = try makeTemporaryDirectory()
        while deep.path.count + 200 + "/printers.json".count < 4095 {
            deep.appendPathComponent(String(repeating: "d", count: 200))
        }
        deep.appendPathComponent(String(repeating: "e", count: 4095 - deep.path.count - "/printers.json".count - 1))
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        return deep
    }
}
