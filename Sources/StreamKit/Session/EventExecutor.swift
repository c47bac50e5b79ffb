import Foundation

/// Where a session delivers a consumer's events. Tests hand in a `DispatchQueue`; the GTK layer
/// hands in the GLib main loop, so views are only ever touched on their own thread.
public protocol EventExecutor: AnyObject, Sendable {
    func execute(_ work: @escaping @Sendable () -> Void)
}

extension DispatchQueue: EventExecutor {
    public func execute(_ work: @escaping @Sendable () -> Void) {
        async(execute: work)
    }
}
