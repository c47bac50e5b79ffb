#!/bin/sh
# What `layerwatch --background` costs watching a mixed farm of eight, in one command: installs
# what is missing, builds Layerwatch and layerwatch-bench (release) and runs `layerwatch-bench
# mixed-farm` from the repository root. On a private Xvfb and session bus (no keyring): 2 Elegoo,
# 2 Flashforge, 2 PrusaLink and 2 Bambu loopback fakes, all printing, in a throwaway HOME's
# printers.json; the app's CPU (tree and threads) and RSS over a window against the target
# (0.05 core, 40 MiB), the fakes' CPU beside it, what each fake saw and the camera connections
# (none expected). Prints a table and writes bench/MIXED-FARM.md.
#   bench/mixed-farm.sh            15 s to settle, 60 s window (about 1.5 minutes after the build)
#   bench/mixed-farm.sh --quick    5 s to settle, 20 s window (under a minute after the build)
#   more flags: --results PATH, --app PATH-TO-layerwatch, --seconds S, --settle S, --logs DIR
set -eu
exec "$(dirname "$0")/screen-bench.sh" mixed-farm "$@"
