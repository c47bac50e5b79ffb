import Foundation
import PrinterKit

/// A throwaway HOME and XDG_CONFIG_HOME for the Layerwatch under test, so it starts from the
/// bench's own `printers.json` (window size, printers, mini windows), never the user's. It lives for
/// the whole bench, so caches the app makes (Mesa's shaders) stay warm from run to run.
struct LayerwatchHome {
    /// Main window sizes that give a 1443×812 picture on the bench's screen (header bar, tab bar and
    /// control bar around it); the bench measures the picture it really gets.
    static let window = (width: 1454, height: 960)
    static let miniWindow = (width: 400, height: 225)

    let directory: URL

    var environment: [String: String] {
        ["HOME": directory.path, "XDG_CONFIG_HOME": directory.appendingPathComponent("config").path]
    }

    /// Saves the app's config: `cameras` as printers in tabs, the first one's tab shown, and the
    /// second one popped out into a mini window when `mini` is set. No cameras: only the window size
    /// (the camera then comes from the command line). `farm`: whether the window opens in the farm
    /// view (attention-first, the default: generic cameras have no print status, so their own order);
    /// `maximized`: the window fills the screen (the farm bench's window); `rotation`: how the
    /// cameras are mounted (clockwise degrees; the zoom bench's turned camera); `statusPorts`: the
    /// loopback Moonraker of each camera's printer (Klipper printers with status; the background
    /// bench), none: generic cameras.
    func write(cameras: [String] = [], mini: Bool = false, farm: Bool = false, maximized: Bool = false, rotation: Int = 0,
               statusPorts: [Int] = []) throws {
        let printers = cameras.enumerated().map { index, url in
            let camera = PrinterCamera(url: url, rotation: rotation)
            return index < statusPorts.count
                ? Printer(name: "Voron \(index + 1)", kind: .klipper, host: "127.0.0.1", apiPort: statusPorts[index], cameras: [camera])
                : Printer(name: "Camera \(index + 1)", kind: .generic, cameras: [camera])
        }
        let minis = mini && printers.count > 1
            ? [AppConfig.MiniWindow(printerID: printers[1].id, cameraID: nil, width: Self.miniWindow.width, height: Self.miniWindow.height)] : []
        try write(printers: printers, miniWindows: minis, farm: farm, maximized: maximized)
    }

    /// Saves the app's config with `printers` as they are (any family; their secrets in the file,
    /// as without a keyring), the first one selected.
    func write(printers: [Printer], miniWindows: [AppConfig.MiniWindow] = [], farm: Bool = false, maximized: Bool = false) throws {
        let config = AppConfig(printers: printers, selectedPrinterID: printers.first?.id,
                               window: .init(width: Self.window.width, height: Self.window.height, maximized: maximized),
                               miniWindows: miniWindows, farm: AppConfig.Farm(shown: farm, attentionFirst: true))
        let store = ConfigStore(directory: ConfigStore.defaultDirectory(environment: environment), secrets: nil)
        try store.save(config)
    }
}
