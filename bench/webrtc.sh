#!/bin/sh
# A WebRTC camera on screen, in one command: installs what is missing (the screen bench's packages
# and Debian's chromium), builds Layerwatch and layerwatch-bench (release) and runs
# `layerwatch-bench webrtc` from the repository root. On a private Xvfb, one at a time in rounds:
# Layerwatch on its own RTSPS path, Layerwatch on a loopback aiortc WebRTC camera (WHEP) sending the
# same clock picture, and Chromium playing that camera with a WHEP page at the same picture size (as
# it chooses to composite, and with --disable-gpu);
# clock → screen p50/p95, CPU and first picture of each, the camera's CPU beside. Prints a table and
# the issue's targets, and writes bench/WEBRTC.md.
#   bench/webrtc.sh            3 rounds, 20 s windows (about 6 minutes after the build)
#   bench/webrtc.sh --quick    1 round, 10 s windows (about 2 minutes after the build)
#   more flags: --results PATH, --app PATH-TO-layerwatch, --rounds N, --seconds S
set -eu
"$(dirname "$0")/../scripts/install-deps.sh" webrtc-bench >&2
exec "$(dirname "$0")/screen-bench.sh" webrtc "$@"
