import CGtk
import Foundation
import GtkKit

/// The History page's small pictures of the prints' final pictures: each decoded and scaled down
/// off the main loop (gdk-pixbuf's JPEG loader decodes at a fraction of the size directly), one at
/// a time, the most recently asked first — so scrolling past a thousand rows loads only the ones
/// still shown — and the last few hundred kept as textures, small.
@MainActor
final class HistoryThumbnails {
    /// The thumbnail's box, in pixels: twice the row's picture, for HiDPI screens.
    nonisolated static let width: Int32 = 192
    nonisolated static let height: Int32 = 144
    /// How many textures are kept (some 110 kB each).
    private let capacity: Int
    private var textures: [String: GObjectRef<OpaquePointer>] = [:]
    /// The kept textures' paths, the least recently used first.
    private var used: [String] = []
    /// Who waits for each path not loaded yet, the newest asked last.
    private var waiting: [(path: String, token: UUID, done: @MainActor (OpaquePointer?) -> Void)] = []
    private var loading: String?
    private let queue = DispatchQueue(label: "layerwatch.history-thumbnails", qos: .userInitiated)

    init(capacity: Int = 300) {
        self.capacity = capacity
    }

    /// The texture of `path` if it is loaded.
    func texture(of path: String) -> OpaquePointer? {
        guard let texture = textures[path] else { return nil }
        used.removeAll { $0 == path }
        used.append(path)
        return texture.pointer
    }

    /// Loads the picture at `path` and hands its texture (nil when it is no picture) to `done`,
    /// unless `cancel(token)` came first. Returns the token.
    @discardableResult
    func load(_ path: String, _ done: @escaping @MainActor (OpaquePointer?) -> Void) -> UUID {
        let token = UUID()
        waiting.append((path, token, done))
        next()
        return token
    }

    /// Forgets a wait (the row showing the picture shows another print now).
    func cancel(_ token: UUID) {
        waiting.removeAll { $0.token == token }
    }

    /// Starts loading the newest path asked for, unless one is loading.
    private func next() {
        guard loading == nil, let path = waiting.last?.path else { return }
        loading = path
        queue.async {
            nonisolated(unsafe) let pixbuf = Self.decode(path)
            MainLoopExecutor.main.runOnMainActor { [weak self] in
                let texture = pixbuf.map { pixbuf in
                    let owned = GObjectRef(adopting: pixbuf)
                    return withExtendedLifetime(owned) { GObjectRef(adopting: gdk_texture_new_for_pixbuf(pixbuf)!) }
                }
                self?.loaded(path, texture)
            }
        }
    }

    private func loaded(_ path: String, _ texture: GObjectRef<OpaquePointer>?) {
        loading = nil
        if let texture { keep(texture, for: path) }
        let done = waiting.filter { $0.path == path }
        waiting.removeAll { $0.path == path }
        done.forEach { $0.done(texture?.pointer) }
        next()
    }

    private func keep(_ texture: GObjectRef<OpaquePointer>, for path: String) {
        textures[path] = texture
        used.append(path)
        while used.count > capacity { textures[used.removeFirst()] = nil }
    }

    /// The picture at `path` scaled into the thumbnail's box, keeping its shape; nil when it is
    /// missing or no picture.
    private nonisolated static func decode(_ path: String) -> OpaquePointer? {
        var error: UnsafeMutablePointer<GError>?
        let pixbuf = gdk_pixbuf_new_from_file_at_scale(path, width, height, true.gboolean, &error)
        g_clear_error(&error)
        return pixbuf
    }
}
