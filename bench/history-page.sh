#!/bin/sh
# The History page with 10 000 prints, in one command: installs what is missing, builds Layerwatch
# and layerwatch-bench (release) and runs `layerwatch-bench history-page` from the repository root.
# On a private Xvfb, Layerwatch's window opens the page (win.show-history over D-Bus) on a generated
# journal with real JPEG pictures: action → first frame with the rows, then frames while scrolling to
# the end with Page Down. Prints a table and writes bench/HISTORY-PAGE.md.
#   bench/history-page.sh            3 rounds, 1300 presses
#   bench/history-page.sh --quick    1 round, 300 presses
#   more flags: --results PATH, --app PATH-TO-layerwatch, --rounds N, --prints N, --presses N
set -eu
exec "$(dirname "$0")/screen-bench.sh" history-page "$@"
