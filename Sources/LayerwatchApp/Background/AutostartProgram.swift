import Foundation

/// Which program the autostart entry outside a sandbox names, as an absolute path: the session
/// that runs autostart entries has a PATH of its own, where `layerwatch` may be missing or be
/// another one. It is the running binary, by the name it has on PATH when that is the same file (a
/// package's symlink outlives an upgrade). A binary in a build folder (a source tree's `.build`,
/// meson's build directory), replaced at every build and gone at a clean, gives way to an installed
/// `layerwatch` on PATH; one removed or replaced since it started (Linux names it "… (deleted)"), to
/// the file now at its path, else to the one on PATH. None can start Layerwatch when none of those
/// exists.
enum AutostartProgram {
    static let name = "layerwatch"
    private static let deletedSuffix = " (deleted)"

    /// The running binary as the kernel names it (`/proc/self/exe`), nil where it cannot be read.
    static func runningExecutable() -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    /// The program for `running` (as `runningExecutable` names it), `layerwatch` looked up in
    /// `searchPath` (PATH's folders); nil when none exists.
    static func choose(running: String?, searchPath: String?) -> String? {
        let installed = onPath(searchPath)
        guard let running else { return installed }
        let path = running.hasSuffix(deletedSuffix) ? String(running.dropLast(deletedSuffix.count)) : running
        guard isProgram(path) else { return installed }
        if let installed, sameFile(installed, path) { return installed }
        return isInBuildFolder(path) ? installed ?? path : path
    }

    /// The first `layerwatch` in an absolute folder of `searchPath` that is an executable file.
    static func onPath(_ searchPath: String?) -> String? {
        (searchPath ?? "").split(separator: ":").lazy.filter { $0.hasPrefix("/") }
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent(name).path }
            .first(where: isProgram)
    }

    private static func isProgram(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && !isFolder.boolValue
            && FileManager.default.isExecutableFile(atPath: path)
    }

    /// Whether both paths lead to one file (symlinks followed).
    private static func sameFile(_ first: String, _ second: String) -> Bool {
        var one = stat(), other = stat()
        return stat(first, &one) == 0 && stat(second, &other) == 0 && one.st_dev == other.st_dev && one.st_ino == other.st_ino
    }

    /// Whether a folder above `path` is a source tree (`Package.swift`) or a build directory (`build.ninja`).
    private static func isInBuildFolder(_ path: String) -> Bool {
        var folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        while folder.path != "/" {
            if ["Package.swift", "build.ninja"].contains(where: {
                FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
            }) { return true }
            folder.deleteLastPathComponent()
        }
        return false
    }
}
