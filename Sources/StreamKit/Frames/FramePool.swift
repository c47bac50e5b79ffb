import Foundation

/// Pixel memory that belongs to a pool: when its last user releases it, it goes back to the pool
/// instead of being freed, so steady streaming allocates nothing per frame.
final class PixelBuffer: @unchecked Sendable {
    let bytes: UnsafeMutableRawPointer
    let stride: Int
    let height: Int
    private weak var pool: FramePool?

    init(stride: Int, height: Int, pool: FramePool) {
        self.stride = stride
        self.height = height
        self.pool = pool
        bytes = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
    }

    deinit {
        bytes.deallocate()
    }

    /// Hands the memory back to its pool (or lets it be freed when the pool is gone or full).
    func recycle() {
        pool?.giveBack(self)
    }
}

/// Recycles pixel buffers of one size. Buffers of an old size are dropped when the size changes.
/// Bounded: it never keeps more than `capacity` idle buffers, whatever the consumers hold.
final class FramePool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [PixelBuffer] = []
    private let capacity: Int

    init(capacity: Int = 3) {
        self.capacity = capacity
    }

    /// A row stride that keeps every row 64-byte aligned for SIMD converters.
    static func stride(forWidth width: Int) -> Int {
        (width * 4 + 63) & ~63
    }

    /// A buffer for `width`×`height` BGRA, reused when one of that size is idle.
    func obtain(width: Int, height: Int) -> PixelBuffer {
        let stride = Self.stride(forWidth: width)
        lock.lock()
        defer { lock.unlock() }
        if let index = idle.lastIndex(where: { $0.stride == stride && $0.height == height }) {
            return idle.remove(at: index)
        }
        idle.removeAll { $0.stride != stride || $0.height != height }
        return PixelBuffer(stride: stride, height: height, pool: self)
    }

    func giveBack(_ buffer: PixelBuffer) {
        lock.lock()
        defer { lock.unlock() }
        if idle.count < capacity { idle.append(buffer) }
    }

}
