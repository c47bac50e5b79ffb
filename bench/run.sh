#!/bin/sh
# The benchmark in one command: builds layerwatch-bench (release) and runs it from the repository
# root. It starts the loopback 1080p30 RTSPS clock servers itself, measures Layerwatch and the ffmpeg
# client in the same run, prints a table and writes bench/RESULTS.md.
#   bench/run.sh            full run (about 16 minutes)
#   bench/run.sh --quick    shorter windows, fewer rounds (about 8 minutes)
set -eu
cd "$(dirname "$0")/.."
export PATH="${SWIFT_BIN:-/opt/swift/usr/bin}:$PATH"
# The same release build users get: the bench reaches the app only through its public API.
swift build -c release --scratch-path .build-bench --product layerwatch-bench >&2
exec .build-bench/release/layerwatch-bench "$@"
