#!/bin/sh
# What following a printer's status costs, Layerwatch beside mosquitto_sub, a paho subscriber and a
# curl loop (bench/status_bench.py; about 5 minutes after the build). Writes bench/STATUS.md.
#   bench/status.sh [--seconds N]
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh status-bench

swift build -c release --scratch-path .build-bench --product layerwatch
exec /usr/bin/python3 bench/status_bench.py "$@"
