#!/bin/sh
# What every on-screen bench (screen, farm, zoom, record) runs first, then the bench itself:
# installs what is missing (scripts/install-deps.sh screen), builds layerwatch and layerwatch-bench
# (release, scratch path .build-screen) and runs `layerwatch-bench BENCH FLAGS…` from the
# repository root.
#   bench/screen-bench.sh BENCH [FLAGS…]
set -eu
cd "$(dirname "$0")/.."
scripts/install-deps.sh screen >&2
export PATH="${SWIFT_BIN:-/opt/swift/usr/bin}:$PATH"
swift build -c release --scratch-path .build-screen --product layerwatch >&2
swift build -c release --scratch-path .build-screen --product layerwatch-bench >&2
exec .build-screen/release/layerwatch-bench "$@"
