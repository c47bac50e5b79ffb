/// What the background bench measures, in the order it runs.
enum BackgroundPhase: String, CaseIterable {
    /// Layerwatch's window maximized in the farm view: a tile per printer.
    case farm
    /// A fresh process with the same printers in tabs: the first shown, the others hidden.
    case tabs
    /// The farm's process after its window was closed with Alt+F4: in the background.
    case closed
    /// `layerwatch --background` started fresh: in the background, never shown.
    case started
    /// 8 of the app's camera sessions held connected with no view (`layerwatch-bench scenario
    /// --mode hidden`, no GTK): keyframes only, what the background would add had it kept its cameras.
    case keyframes
    /// `ffmpeg -f null`, one process per camera: the decode floor.
    case ffmpeg

    var label: String {
        switch self {
        case .farm: return "Layerwatch shown, farm (8 tiles)"
        case .tabs: return "Layerwatch shown, 8 tabs"
        case .closed: return "Layerwatch, window closed (Alt+F4)"
        case .started: return "layerwatch --background (fresh)"
        case .keyframes: return "8 sessions held, keyframes only"
        case .ffmpeg: return "ffmpeg -f null × 8"
        }
    }

    /// Layerwatch's background (the figures the target is about).
    var isBackground: Bool { self == .closed || self == .started }
}

/// One phase's figures over its window. CPU in seconds a minute; memory in MiB.
struct BackgroundRun: CPUSplitFigures {
    let phase: BackgroundPhase
    var cpu: Double?
    /// The camera server's (encoder and TLS) CPU over the same window.
    var serverCPU: Double?
    /// The 8 Moonraker fakes' CPU over the same window.
    var statusCPU: Double?
    var xvfbCPU: Double?
    var benchCPU: Double?
    /// The machine's busy CPU less everything above: the keeper client, the kernel, and whatever
    /// else ran then (the other engineers' builds and tests share this machine).
    var otherCPU: Double?
    /// Its memory over the window (`VmHWM`: after the window closed, the shown farm's peak).
    var memory = MemoryFigures()
    /// Status polls (`/printer/objects/query`) each Moonraker answered a minute over the window,
    /// and its other requests (Spoolman's spool, …).
    var pollsPerMinute: Double?
    var otherRequestsPerMinute: Double?
    /// Camera connections the RTSP server had at the window's end, its keeper client left out.
    var cameraConnections: Int?
    /// Layerwatch's visible windows at the window's end.
    var windows: Int?
    /// Pictures found on screen before the window.
    var pictures: Int?
    /// Alt+F4 → the RTSP server has seen every camera connection go.
    var camerasGoneSeconds: Double?
    /// After Alt+F4: seconds until the process ran as `layerwatch --background` (the app's lean
    /// restart, same process id); nil when it did not.
    var restartedSeconds: Double?
    /// Frames decoded a second per session (the keyframes-only sessions' own count).
    var decodedPerSecond: Double?
    var failure: String?
}
