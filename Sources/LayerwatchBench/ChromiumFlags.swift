/// Chromium's command line for the WebRTC bench: Debian's `chromium` as an app window (no tabs, no
/// toolbar) on the camera's WHEP page, with the picture at the size and place Layerwatch's had, kept
/// on loopback and quiet, so it does nothing but play the camera.
enum ChromiumFlags {
    /// `page`: the camera's page (`webrtc_camera.py --page bench/whep-player.html`); `profile`: a
    /// throwaway user-data directory; `gpu`: false adds `--disable-gpu` (Chromium's own software
    /// compositor instead of GL, which without a GPU runs on Mesa's llvmpipe).
    static func arguments(page: String, picture: ScreenRect, profile: String, gpu: Bool) -> [String] {
        (gpu ? [] : ["--disable-gpu"]) + [
            // The bench runs as root, where Chromium's sandbox cannot start; `--test-type` keeps the
            // warning bar that flag brings off the page (it would push the picture down).
            "--no-sandbox", "--test-type",
            "--user-data-dir=\(profile)", "--no-first-run", "--no-default-browser-check", "--password-store=basic",
            // Nothing in the background: no sync, updates, pings, extensions, translation or casting.
            "--disable-sync", "--disable-background-networking", "--disable-component-update", "--disable-default-apps",
            "--disable-extensions", "--no-pings", "--disable-features=Translate,MediaRouter,OptimizationHints,WebRtcHideLocalIpsWithMdns",
            // Any HTTP(S) request off this machine goes to a dead loopback proxy and fails at once
            // (loopback itself is never proxied); host candidates are plain addresses, not mDNS
            // names the camera would resolve by multicast.
            "--proxy-server=http://127.0.0.1:9",
            "--autoplay-policy=no-user-gesture-required", "--force-device-scale-factor=1",
            // The page's console lines (the candidates Chromium gathered) in its output.
            "--enable-logging=stderr",
            // The page's <video> is the picture's size at the window's top-left; a little room
            // around it stays black.
            "--window-position=\(picture.x),\(picture.y)", "--window-size=\(picture.width + 16),\(picture.height + 16)",
            "--app=\(page)?width=\(picture.width)&height=\(picture.height)&whep=/whep",
        ]
    }
}
