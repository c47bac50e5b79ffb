#!/bin/sh
# Installs the Debian 12 packages Layerwatch needs, only those missing, with sudo when not root.
#   scripts/install-deps.sh build   — to build and run the app (GStreamer's webrtcbin, libnice and
#                                     the H.264/VP8 RTP depayloaders included, for WebRTC cameras)
#   scripts/install-deps.sh test    — also the real test peers (GStreamer RTSP server, ffmpeg, Xvfb,
#                                     weston, aiortc's WebRTC camera; python3-venv for the venvs with
#                                     PyPI's aiortc the WebRTC tests make, Tests/Servers/pypi-aiortc.sh,
#                                     and PyPI's OctoPrint the upload tests make, pypi-octoprint.sh)
#   scripts/install-deps.sh screenshots — also what renders docs/screenshots (xdotool, ImageMagick; weston
#                                     for the Wayland ones)
#   scripts/install-deps.sh screen  — also the peers bench/screen.sh runs (mpv, gst-launch-1.0 with its
#                                     X sink and libav decoder) and Mesa's software GL
#   scripts/install-deps.sh webrtc-bench — what `screen` installs and Chromium, the peer of bench/webrtc.sh
#   scripts/install-deps.sh status-bench — also mosquitto_sub, a peer of bench/status.sh
#   scripts/install-deps.sh desktop — what `make install` needs (meson, validators)
set -eu

build="pkg-config libgtk-4-dev libadwaita-1-dev libsecret-1-dev libsoup-3.0-dev libsqlite3-dev zlib1g-dev libmosquitto-dev libssl-dev libavformat-dev libavcodec-dev libswscale-dev libavutil-dev libx11-dev
       libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev libgstreamer-plugins-bad1.0-dev
       gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-nice"
test="$build ffmpeg openssl mosquitto python3-paho-mqtt python3 python3-gi python3-yaml gir1.2-glib-2.0 gir1.2-gstreamer-1.0 gir1.2-gst-rtsp-server-1.0
      python3-aiortc python3-venv
      gstreamer1.0-plugins-base gstreamer1.0-plugins-good gstreamer1.0-plugins-bad gstreamer1.0-plugins-ugly
      xvfb xauth openbox x11-utils xdotool weston dbus-daemon gnome-keyring libglib2.0-bin
      meson ninja-build gettext desktop-file-utils appstream flatpak-builder"
screen="$test libxext-dev mpv gstreamer1.0-tools gstreamer1.0-x gstreamer1.0-libav libgl1-mesa-dri"
desktop="$build meson ninja-build gettext desktop-file-utils appstream gtk-update-icon-cache"

case "${1:-build}" in
    build) wanted=$build ;;
    test) wanted=$test ;;
    screenshots) wanted="$test xdotool imagemagick" ;;
    screen) wanted=$screen ;;
    webrtc-bench) wanted="$screen chromium" ;;
    status-bench) wanted="$test mosquitto-clients" ;;
    desktop) wanted=$desktop ;;
    *) echo "usage: $0 build|test|screenshots|screen|webrtc-bench|status-bench|desktop" >&2; exit 2 ;;
esac

missing=""
for package in $wanted; do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$package" 2>/dev/null || true)
    [ "$status" = "installed" ] || missing="$missing $package"
done
[ -z "$missing" ] && exit 0

echo "Installing:$missing"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
