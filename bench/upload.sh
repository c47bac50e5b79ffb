#!/bin/sh
# What sending a file to print costs: `layerwatch print` beside `curl -F` to the same loopback
# Moonraker (bench/upload_bench.py; about a minute after the build). Writes bench/UPLOAD.md.
#   bench/upload.sh [--megabytes N] [--rounds N]
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh test
command -v curl >/dev/null || { echo "bench/upload.sh needs curl" >&2; exit 2; }

swift build -c release --scratch-path .build-bench --product layerwatch
exec /usr/bin/python3 bench/upload_bench.py "$@"
