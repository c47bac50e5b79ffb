import Foundation
@testable import JournalKit
import TestSupport
import XCTest

/// The journal's pictures kept for a time: a prune deletes the files of the prints that ended
/// before the cutoff and forgets them, keeping the prints, the newer pictures and any file outside
/// the pictures folder; the disk use counts the files in the pictures folder.
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
