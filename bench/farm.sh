#!/bin/sh
# What the farm view costs, in one command: installs what is missing, builds Layerwatch and
# layerwatch-bench (release) and runs `layerwatch-bench farm` from the repository root. On a private
# Xvfb it shows every saved printer as a tile in Layerwatch's maximized window (GSK_RENDERER=cairo):
# 1, 4, 8 and 16 printers on the camera-like 1080p30 RTSPS stream and 6 on the 720p30 one, each its
# own connection, beside ffmpeg -f null (the decode floor) and one mpv window per stream; reads every
# tile's clock back from the framebuffer. Prints a table and writes bench/FARM.md.
#   bench/farm.sh            full run: 20 s windows, Layerwatch twice (about 11 minutes after the build)
#   bench/farm.sh --quick    10 s windows, once (about 5 minutes after the build)
#   more flags: --results PATH, --app PATH-TO-layerwatch, --printers 1,4,8,16, --peers ffmpeg,mpv,
#               --rounds N, --seconds S, --settle S, --no-720p, --no-tabs, --shots DIR, --logs DIR
set -eu
exec "$(dirname "$0")/screen-bench.sh" farm "$@"
