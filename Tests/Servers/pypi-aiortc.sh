#!/bin/sh
# Prints the path of a Python whose aiortc is PyPI's (pypi-aiortc.txt) and which still has Debian's
# python3-gi and numpy, making its venv first when it is missing (pypi-venv.sh): webrtc_camera.py
# runs on it so Layerwatch is tested against current aiortc as well as Debian's 1.4
# (/usr/bin/python3).
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
# System site packages for python3-gi (clockblocks.py) and numpy; the venv's own come first.
venv=$("$here/pypi-venv.sh" aiortc --system-site-packages)
wanted=$(sed -n 's/^aiortc==//p' "$here/pypi-aiortc.txt")
found=$("$venv/bin/python" -c 'import aiortc; print(aiortc.__version__)')
if [ "$found" != "$wanted" ]; then
    echo "$venv has aiortc $found, not $wanted" >&2
    exit 1
fi
echo "$venv/bin/python"
