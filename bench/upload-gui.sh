#!/bin/sh
# The main loop while the window sends a file, in one command: builds the tests (debug) and runs
# PrintFileTests.testTheMainLoopKeepsTurningDuringA300MBUpload under Xvfb with a session bus — the
# real app sends 300 MB from its Print File confirmation to the Moonraker fake while a picture
# plays, and a 5 ms timer on the main loop notes its longest gap, beside the same with no upload.
# Writes bench/UPLOAD-GUI.md (or --results PATH). About a minute after the build.
set -eu
cd "$(dirname "$0")/.."
results="bench/UPLOAD-GUI.md"
if [ "${1:-}" = "--results" ]; then results="$2"; fi
case "$results" in /*) ;; *) results="$PWD/$results" ;; esac
export PATH="/opt/swift/usr/bin:$PATH"
swift build --build-tests
LAYERWATCH_UPLOAD_GUI_RESULTS="$results" dbus-run-session -- xvfb-run -a -s "-screen 0 1600x1200x24" \
    swift test --skip-build --disable-swift-testing --filter PrintFileTests.testTheMainLoopKeepsTurningDuringA300MBUpload
cat "$results"
