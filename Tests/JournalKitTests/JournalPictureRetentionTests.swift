import Foundation
@testable import JournalKit
import TestSupport
import XCTest

/// The journal's pictures kept for a time: a prune deletes the files of the prints that ended
/// before the cutoff and forgets them, keeping the prints, the newer pictures and any file outside
/// the pictures folder; a size limit deletes the oldest first until the pictures folder takes no
/// more; the disk use counts the files in the pictures folder.
final class JournalPictureRetentionTests: XCTestCase {
    private func picture(_ name: String, in folder: URL, bytes: Int) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try Data(repeating: 0xD8, count: bytes).write(to: file)
        return file
    }

    private func print(_ key: String, ended: Date, first: URL?, final: URL?) -> JournalPrint {
        JournalPrint(key: key, printerID: "p1", printerName: "Voron", job: "\(key).gcode", started: ended.addingTimeInterval(-3600),
                     ended: ended, result: .finished, firstLayerPicture: first, finalPicture: final)
    }

    func testAPruneDeletesTheOldPicturesAndKeepsTheirPrints() throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("layerwatch/journal.sqlite3")
        let store = JournalStore(url: url)
        let folder = store.picturesFolder
        let now = Date()
        let oldFirst = try picture("old-first.jpg", in: folder, bytes: 10)
        let oldFinal = try picture("old-final.jpg", in: folder, bytes: 20)
        let newFinal = try picture("new-final.jpg", in: folder, bytes: 40)
        let elsewhere = try picture("elsewhere.jpg", in: try makeTemporaryDirectory(), bytes: 5)
        store.record(print("old", ended: now.addingTimeInterval(-40 * 86400), first: oldFirst, final: oldFinal))
        store.record(print("new", ended: now.addingTimeInterval(-5 * 86400), first: nil, final: newFinal))
        store.record(print("outside", ended: now.addingTimeInterval(-50 * 86400), first: nil, final: elsewhere))

        store.prunePictures(endedBefore: now.addingTimeInterval(-30 * 86400))

        let old = try XCTUnwrap(store.print(key: "old"), "the print stays")
        XCTAssertNil(old.firstLayerPicture)
        XCTAssertNil(old.finalPicture)
        XCTAssertFalse(FileManager.default.fileExists(atPath: oldFirst.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: oldFinal.path))
        XCTAssertEqual(store.print(key: "new")?.finalPicture, newFinal)
        XCTAssertTrue(FileManager.default.fileExists(atPath: newFinal.path))
        XCTAssertNil(store.print(key: "outside")?.finalPicture, "forgotten by the journal")
        XCTAssertTrue(FileManager.default.fileExists(atPath: elsewhere.path), "a file outside the pictures folder is not deleted")
    }

    func testASizeLimitDeletesTheOldestPicturesFirstAndKeepsTheirPrints() throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("layerwatch/journal.sqlite3")
        let store = JournalStore(url: url)
        let folder = store.picturesFolder
        let now = Date()
        // Ended 4, 3, 2 and 1 days ago; the oldest's pictures are recorded last.
        let newest = try picture("newest.jpg", in: folder, bytes: 400)
        let third = try picture("third.jpg", in: folder, bytes: 300)
        let secondFirst = try picture("second-first.jpg", in: folder, bytes: 100)
        let secondFinal = try picture("second-final.jpg", in: folder, bytes: 200)
        let oldest = try picture("oldest.jpg", in: folder, bytes: 250)
        let elsewhere = try picture("elsewhere.jpg", in: try makeTemporaryDirectory(), bytes: 5000)
        let unnamed = try picture("unnamed.jpg", in: folder, bytes: 50)
        store.record(print("newest", ended: now.addingTimeInterval(-1 * 86400), first: nil, final: newest))
        store.record(print("third", ended: now.addingTimeInterval(-2 * 86400), first: nil, final: third))
        store.record(print("second", ended: now.addingTimeInterval(-3 * 86400), first: secondFirst, final: secondFinal))
        store.record(print("outside", ended: now.addingTimeInterval(-5 * 86400), first: nil, final: elsewhere))
        store.record(print("oldest", ended: now.addingTimeInterval(-4 * 86400), first: nil, final: oldest))
        XCTAssertEqual(diskUse(of: store), 1300)

        store.prunePictures(toAtMost: 800)

        XCTAssertEqual(diskUse(of: store), 750, "the oldest deleted until at most the limit, a print's pictures together")
        for (key, file) in [("oldest", oldest), ("second", secondFirst), ("second", secondFinal)] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), file.lastPathComponent)
            let kept = try XCTUnwrap(store.print(key: key), "the print stays")
            XCTAssertNil(kept.finalPicture)
            XCTAssertNil(kept.firstLayerPicture)
        }
        XCTAssertEqual(store.print(key: "third")?.finalPicture, third)
        XCTAssertEqual(store.print(key: "newest")?.finalPicture, newest)
        XCTAssertTrue(FileManager.default.fileExists(atPath: third.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: elsewhere.path), "a file outside the pictures folder is not deleted")
        XCTAssertTrue(FileManager.default.fileExists(atPath: unnamed.path), "a file the journal does not name is left")

        store.prunePictures(toAtMost: 800)
        XCTAssertEqual(store.print(key: "third")?.finalPicture, third, "under the limit, nothing more goes")
    }

    func testTheDiskUseCountsThePicturesFolderAfterAPrune() throws {
        let url = try makeTemporaryDirectory().appendingPathComponent("layerwatch/journal.sqlite3")
        let store = JournalStore(url: url)
        let now = Date()
        let old = try picture("old.jpg", in: store.picturesFolder, bytes: 3000)
        _ = try picture("kept.jpg", in: store.picturesFolder, bytes: 1234)
        _ = try picture("nested.jpg", in: store.picturesFolder.appendingPathComponent("more"), bytes: 100)
        store.record(print("old", ended: now.addingTimeInterval(-100 * 86400), first: nil, final: old))

        XCTAssertEqual(diskUse(of: store), 4334)
        store.prunePictures(endedBefore: now.addingTimeInterval(-90 * 86400))
        XCTAssertEqual(diskUse(of: store), 1334, "counted after the prune queued before")
    }

    func testTheDiskUseOfNoPicturesIsNothing() throws {
        let store = JournalStore(url: try makeTemporaryDirectory().appendingPathComponent("journal.sqlite3"))
        XCTAssertEqual(diskUse(of: store), 0)
    }

    private func diskUse(of store: JournalStore) -> Int64? {
        let counted = expectation(description: "disk use")
        let answers = DispatchQueue(label: "disk use")
        nonisolated(unsafe) var result: Int64?
        store.picturesDiskUse(on: answers) { bytes in
            result = bytes
            counted.fulfill()
        }
        wait(for: [counted], timeout: 10)
        return answers.sync { result }
    }
}
