#!/bin/sh
# The main loop while the window sends a file, in one command: builds the tests (debug) and runs
# PrintFileTests.testTheMainLoopKeepsTurningDuringA300MBUpload under Xvfb with a session bus — the
# real app sends 300 MB from its Print File confirmation to the Moonraker fake while a picture
# plays, and a 5 ms timer on the main loop notes its longest gap, beside the same with no upload.
# It runs twice: drawn as Layerwatch draws on this computer (SoftwareGL's choice: cairo, and GDK's
# OpenGL off, when there is no GPU render node; GTK's own choice otherwise), then with GTK's own
# choice (OpenGL, on Mesa's software rasteriser here), the renderer the app avoids without a GPU.
# Writes bench/UPLOAD-GUI.md (or --results PATH). About a minute after the build.
set -eu
cd "$(dirname "$0")/.."
results="bench/UPLOAD-GUI.md"
if [ "${1:-}" = "--results" ]; then results="$2"; fi
case "$results" in /*) ;; *) results="$PWD/$results" ;; esac
export PATH="/opt/swift/usr/bin:$PATH"
swift build --build-tests
cat > "$results" <<'TEXT'
# The main loop during an upload from the window

`bench/upload-gui.sh` runs PrintFileTests.testTheMainLoopKeepsTurningDuringA300MBUpload (debug
build, Xvfb 1600×1200, the real app in the test process): a 300 MB G-code file sent from the
Print File confirmation to the Moonraker fake on loopback while the printer's farm tile and the
confirmation play a 320×180 10 fps clip. A 5 ms GLib timer on the main loop notes each tick,
first for 3 s with the dialog open and no upload, then from Print until the printer reports the
print. Target (issue 39): no stall over 50 ms. The sending runs on a thread of its own
(`FileUpload`); the main loop only takes its progress, at most ten times a second.

Two runs: first drawn as Layerwatch draws on this computer — it has no GPU render node, so the
app asks GTK for cairo and turns GDK's OpenGL off (`SoftwareGL`; docs/ARCHITECTURE.md) — then
with GTK's own choice, OpenGL on Mesa's software rasteriser, which the app never uses without a
GPU: there most of each gap is drawing, with or without an upload (compare the columns).
TEXT
run() {
    env "$@" LAYERWATCH_UPLOAD_GUI_RESULTS="$results" dbus-run-session -- xvfb-run -a -s "-screen 0 1600x1200x24" \
        swift test --skip-build --disable-swift-testing --filter PrintFileTests.testTheMainLoopKeepsTurningDuringA300MBUpload
}
if ls /dev/dri/renderD* >/dev/null 2>&1; then run; else run GSK_RENDERER=cairo GDK_DEBUG=gl-disable; fi
run -u GSK_RENDERER -u GDK_DEBUG
cat "$results"
