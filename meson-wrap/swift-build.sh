#!/bin/sh
# Builds the SwiftPM product `layerwatch` in release mode into meson's own scratch folder and copies
# it to the output meson expects.
#   swift-build.sh SWIFT PACKAGE_DIR SCRATCH_DIR OUTPUT [swift build arguments…]
set -eu
swift=$1 package=$2 scratch=$3 output=$4
shift 4
"$swift" build -c release --product layerwatch --package-path "$package" --scratch-path "$scratch" "$@"
bin=$("$swift" build -c release --package-path "$package" --scratch-path "$scratch" "$@" --show-bin-path)
cp -f "$bin/layerwatch" "$output.tmp"
mv -f "$output.tmp" "$output"
