import StreamKit

/// How a scenario's views show their stream: a full-size 1080p view, a window-size view (1280 px
/// wide, the main window on a laptop), a mini window (480 px wide), or a hidden tab.
enum ViewMode: String, CaseIterable {
    case full, window, mini, hidden

    var displaySize: PixelSize {
        switch self {
        case .full: return PixelSize(width: 1920, height: 1080)
        case .window: return PixelSize(width: 1280, height: 720)
        case .mini, .hidden: return PixelSize(width: 480, height: 270)
        }
    }

    /// The modes measured with 1, 4 and 8 sessions.
    static let scaling: [ViewMode] = [.full, .mini, .hidden]

    var visible: Bool { self != .hidden }

    var label: String {
        switch self {
        case .full: return "visible 1920"
        case .window: return "window 1280"
        case .mini: return "mini 480"
        case .hidden: return "hidden"
        }
    }
}
