import CGtk
import Foundation
import GtkKit
import TestSupport
import XCTest

/// A program standing in for `layerwatch` at a path a shell would split and a desktop entry would
/// expand (spaces, quotes, `%`, `$`, a backslash), which writes the arguments it was started with
/// (PreferencesTests, AutostartTests).
struct LaunchRecorder {
    let path: String
    private let record: URL

    /// A folder name with every character the Exec key quotes or expands.
    static let oddName = #"Layer watch "100% done" $HOME it's a\b"#

    /// The program in `folder`/`name`.
    init(in folder: URL, name: String = LaunchRecorder.oddName) throws {
        let odd = folder.appendingPathComponent(name, isDirectory: true)
        try FileManager.default.createDirectory(at: odd, withIntermediateDirectories: true)
        record = folder.appendingPathComponent("launched.txt")
        path = odd.appendingPathComponent("layerwatch").path
        // Written aside and renamed: the record appears whole, never as the empty file a shell's
        // redirection creates before printf writes into it.
        try Data("#!/bin/sh\nprintf '%s\\n' \"$0\" \"$@\" > '\(record.path).part' && mv '\(record.path).part' '\(record.path)'\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        XCTAssertEqual(chmod(path, 0o755), 0)
    }

    /// Starts `entry` as the desktop does (GLib's GDesktopAppInfo: its TryExec checked, its Exec
    /// unquoted and its field codes expanded) and returns the program's path and arguments.
    @MainActor
    func launch(_ entry: URL) throws -> [String] {
        // gio-unix's header is not among those Swift imports; the function is in libgio all the same.
        typealias NewFromFilename = @convention(c) (UnsafePointer<CChar>) -> OpaquePointer?
        let newFromFilename = unsafeBitCast(try XCTUnwrap(dlsym(UnsafeMutableRawPointer(bitPattern: 0), "g_desktop_app_info_new_from_filename")),
                                            to: NewFromFilename.self)
        let info = try XCTUnwrap(newFromFilename(entry.path), "GLib reads the entry, its TryExec found")
        defer { g_object_unref(UnsafeMutableRawPointer(info)) }
        var error: UnsafeMutablePointer<GError>?
        XCTAssertTrue(Bool(gboolean: g_app_info_launch(gcast(info), nil, nil, &error)), error.map { String(cString: $0.pointee.message) } ?? "")
        g_clear_error(&error)
        XCTAssertTrue(waitUntil(timeout: 10) { FileManager.default.fileExists(atPath: record.path) }, "the program ran")
        return try String(contentsOf: record, encoding: .utf8).split(separator: "\n").map(String.init)
    }
}
