import Foundation

/// One printer's timelapse pictures, waiting on disk until its print ends: numbered JPEGs in a
/// folder of the app's state, and a small manifest naming the print they belong to and the layer
/// of the last picture, so the app started again mid-print adds to the same timelapse. Pictures
/// whose video could not be made are set aside whole (`setAside`) to wait for another try. Not
/// thread-safe: its owner calls it from one queue.
public final class TimelapseFrames {
    /// What the folder holds pictures of.
    private struct Manifest: Codable {
        var job: String
        var layer: Int?
        /// Set when the print ended (its timelapse set aside): whether it failed.
        var failed: Bool?
    }

    public let folder: URL
    private var manifest: Manifest?
    /// Pictures in the folder.
    public private(set) var count = 0

    /// The store in `folder`, with whatever an earlier run left there.
    public init(folder: URL) {
        self.folder = folder
        if let data = try? Data(contentsOf: manifestURL), let manifest = try? JSONDecoder().decode(Manifest.self, from: data) {
            self.manifest = manifest
            count = pictures.count
        }
    }

    /// The print the pictures are of, if any.
    public var job: String? { manifest?.job }
    /// The layer of the last picture, when taken per layer.
    public var layer: Int? { manifest?.layer }
    /// For pictures set aside: whether their print failed.
    public var failed: Bool { manifest?.failed ?? false }

    /// Starts the timelapse of `job`: the pictures of that job taken before (a restart) stay,
    /// another print's are thrown away.
    public func begin(job: String) throws {
        let job = String(job.prefix(256))
        guard manifest?.job != job else { return }
        clear()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        manifest = Manifest(job: job, layer: nil)
        try save()
    }

    /// Adds one picture (a JPEG), taken at `layer` when per layer.
    public func add(jpeg: [UInt8], layer: Int?) throws {
        guard manifest != nil else { return }
        try Data(jpeg).write(to: folder.appendingPathComponent(String(format: "%06d.jpg", count + 1)), options: .atomic)
        count += 1
        manifest?.layer = layer
        try save()
    }

    /// The pictures in the order they were taken.
    public var pictures: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".jpg") }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// Moves the pictures and the manifest to `destination`, a new folder in the same file system
    /// (one rename: no space needed for the pictures), where they wait whole for their video, and
    /// notes there whether the print `failed`; returns the store there. This store is then empty,
    /// ready for the next print.
    public func setAside(to destination: URL, failed: Bool) throws -> TimelapseFrames {
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: folder, to: destination)
        let aside = TimelapseFrames(folder: destination)
        aside.manifest?.failed = failed
        try? aside.save()  // on a full disk it may not be noted: the video then tells a finished print
        manifest = nil
        count = 0
        return aside
    }

    /// Removes the folder with everything in it (pictures set aside, once their video is made).
    public func remove() {
        try? FileManager.default.removeItem(at: folder)
        manifest = nil
        count = 0
    }

    /// Throws every picture and the manifest away.
    public func clear() {
        for url in pictures { try? FileManager.default.removeItem(at: url) }
        try? FileManager.default.removeItem(at: manifestURL)
        manifest = nil
        count = 0
    }

    private var manifestURL: URL { folder.appendingPathComponent("timelapse.json") }

    private func save() throws {
        try JSONEncoder().encode(manifest).write(to: manifestURL, options: .atomic)
    }
}
