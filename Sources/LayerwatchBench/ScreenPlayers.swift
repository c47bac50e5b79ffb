/// The renderer GTK draws Layerwatch's window with (`GSK_RENDERER`), measured one by one: under Xvfb
/// "gl" is Mesa's llvmpipe through GLX, and "gles" the same through OpenGL ES.
enum Renderer: String, CaseIterable {
    case cairo, gl, gles

    var environment: [String: String] {
        switch self {
        case .cairo: return ["GSK_RENDERER": "cairo"]
        case .gl: return ["GSK_RENDERER": "gl"]
        case .gles: return ["GSK_RENDERER": "gl", "GDK_DEBUG": "gl-gles"]
        }
    }

    var label: String {
        switch self {
        case .cairo: return "GSK_RENDERER=cairo"
        case .gl: return "GSK_RENDERER=gl"
        case .gles: return "GSK_RENDERER=gl GDK_DEBUG=gl-gles"
        }
    }
}

/// One program that shows the stream on screen: Layerwatch's main window with a renderer, or a
/// peer told to show the picture at Layerwatch's size, `gst-launch-1.0` (decode, scale, X image
/// sink), `mpv` (low-latency profile, X11 output) and Chromium (a WHEP page into a `<video>`, the
/// WebRTC bench's; `profile` is its throwaway user-data directory, `gpu` whether it may composite
/// with GL, which without a GPU is Mesa's llvmpipe).
enum ScreenPlayer: Hashable {
    case layerwatch(Renderer)
    case gstreamer
    case mpv
    case chromium(profile: String, gpu: Bool)

    static let peers: [ScreenPlayer] = [.gstreamer, .mpv]

    var label: String {
        switch self {
        case .layerwatch: return "Layerwatch"
        case .gstreamer: return "GStreamer"
        case .mpv: return "mpv"
        case .chromium: return "Chromium"
        }
    }

    /// Its command line for `url` (Chromium's: the camera's page), showing the picture at
    /// `picture`'s size (and place, for mpv and Chromium: Layerwatch's and GStreamer's windows are
    /// placed by the window manager). Layerwatch reads its window size from its config (`LayerwatchHome`).
    func command(url: String, app: String, picture: ScreenRect) -> (executable: String, arguments: [String], environment: [String: String]) {
        switch self {
        case .layerwatch(let renderer):
            return (app, [url], renderer.environment)
        case .gstreamer:
            let pipeline = "rtspsrc location=\(url) latency=0 protocols=tcp tls-validation-flags=0 ! rtph264depay ! avdec_h264 ! "
                + "videoconvert ! videoscale ! video/x-raw,width=\(picture.width),height=\(picture.height) ! ximagesink sync=false"
            return ("/usr/bin/gst-launch-1.0", pipeline.split(separator: " ").map(String.init), [:])
        case .mpv:
            let geometry = "\(picture.width)x\(picture.height)+\(picture.x)+\(picture.y)"
            return ("/usr/bin/mpv", ["--no-config", "--profile=low-latency", "--untimed", "--vo=x11", "--no-border",
                                     "--geometry=\(geometry)", "--no-osc", "--no-input-default-bindings", url], [:])
        case .chromium(let profile, let gpu):
            return ("/usr/bin/chromium", ChromiumFlags.arguments(page: url, picture: picture, profile: profile, gpu: gpu), [:])
        }
    }
}
