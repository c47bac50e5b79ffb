import StreamKit

/// How a scenario's views show their stream: a full-size 1080p view, a mini window (480 px wide),
/// or a hidden tab.
enum ViewMode: String, CaseIterable {
    case full, mini, hidden

    var displaySize: PixelSize {
        self == .full ? PixelSize(width: 1920, height: 1080) : PixelSize(width: 480, height: 270)
    }

    var visible: Bool { self != .hidden }

    var label: String {
        switch self {
        case .full: return "visible 1920"
        case .mini: return "mini 480"
        case .hidden: return "hidden"
        }
    }
}
