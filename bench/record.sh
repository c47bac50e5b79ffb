#!/bin/sh
# What recording costs, in one command: installs what is missing, builds Layerwatch and
# layerwatch-bench (release) and runs `layerwatch-bench record` from the repository root:
# `layerwatch record` on the camera-like 1080p30 RTSPS stream beside `ffmpeg -c copy` and
# `ffmpeg -f null` in the same run. Prints a table and writes bench/RECORD.md.
#   bench/record.sh            3 rounds, 20 s windows (about 4 minutes after the build)
#   bench/record.sh --quick    1 round, 10 s windows (about 1 minute after the build)
#   more flags: --results PATH, --app PATH-TO-layerwatch, --rounds N, --seconds S
set -eu
exec "$(dirname "$0")/screen-bench.sh" record "$@"
