import StreamKit

/// What a launch asks besides camera URLs: GApplication's main options (`--farm`…), which
/// `LayerwatchApplication.run` passes to the instance that shows the window.
public enum LaunchFlag: String, Sendable, CaseIterable {
    /// The window opens in, or switches to, the farm view.
    case farm
    /// The demo printer's tab opens (or comes up).
    case demo
    /// Layerwatch starts watching with no window (at login); a running one is left as it is.
    case background

    /// The option on a command line.
    public var argument: String { "--" + rawValue }

    /// What the option does, for the command line's help.
    public var help: String {
        switch self {
        case .farm: tr("Open in the farm view: every printer at once (remembered for next time).")
        case .demo: tr("Open the demo printer: a recorded camera and a simulated print.")
        case .background: tr("Start watching with no window (as at login); launch Layerwatch again to show it.")
        }
    }
}
