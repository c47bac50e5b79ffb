#!/bin/sh
# What zooming costs, in one command: installs what is missing, builds Layerwatch and
# layerwatch-bench (release) and runs `layerwatch-bench zoom` from the repository root. On a private
# Xvfb, Layerwatch's window shows the camera-like 1080p30 RTSPS stream fitted and zoomed 2×, 4× and
# 8× (the `+` key), and mpv at the same size and zoom, then ffmpeg -f null; CPU and frames shown.
# Prints a table and writes bench/ZOOM.md.
#   bench/zoom.sh            2 rounds, 20 s windows (about 6 minutes after the build)
#   bench/zoom.sh --quick    1 round, 10 s windows (about 3 minutes after the build)
#   more flags: --results PATH, --app PATH-TO-layerwatch, --rounds N, --seconds S
set -eu
exec "$(dirname "$0")/screen-bench.sh" zoom "$@"
