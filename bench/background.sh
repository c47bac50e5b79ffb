#!/bin/sh
# What Layerwatch costs with its window closed, in one command: installs what is missing, builds
# Layerwatch and layerwatch-bench (release) and runs `layerwatch-bench background` from the
# repository root. On a private Xvfb, 8 Klipper printers (a loopback Moonraker each, printing) with
# a camera each on the camera-like 1080p30 RTSPS stream: the farm view shown, the same process
# after Alt+F4 closes its window, the printers in tabs, and `layerwatch --background` started fresh,
# beside 8 camera sessions held at keyframes only and ffmpeg -f null × 8. Prints a table with the
# target (background ≤ 0.25× the shown cost) and writes bench/BACKGROUND.md.
#   bench/background.sh            30 s windows (about 5 minutes after the build)
#   bench/background.sh --quick    10 s windows (about 2 minutes after the build)
#   more flags: --results PATH, --app PATH-TO-layerwatch, --seconds S, --settle S, --no-tabs,
#               --no-peers, --logs DIR
set -eu
exec "$(dirname "$0")/screen-bench.sh" background "$@"
