#!/bin/sh
# What a user sees on screen, in one command: installs what is missing, builds Layerwatch and
# layerwatch-bench (release) and runs `layerwatch-bench screen` from the repository root. On a
# private Xvfb it shows the loopback 1080p30 RTSPS clock stream in Layerwatch's window (cairo, GL and
# GLES renderers) and, at the same picture size, in GStreamer and mpv, one at a time, reads the clock
# back from the framebuffer, then runs Layerwatch with 4 cameras in tabs and a mini window. Prints a
# table and writes bench/SCREEN.md.
#   bench/screen.sh            full run: 3 rounds, 20 s windows (about 7 minutes after the build)
#   bench/screen.sh --quick    1 round, 10 s windows (about 2 minutes after the build)
#   more flags: --results PATH, --app PATH-TO-layerwatch, --players layerwatch,gstreamer,mpv,
#               --renderers cairo,gl,gles
set -eu
exec "$(dirname "$0")/screen-bench.sh" screen "$@"
