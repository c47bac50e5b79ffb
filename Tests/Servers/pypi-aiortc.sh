#!/bin/sh
# Prints the path of a Python whose aiortc is PyPI's (pypi-aiortc.txt) and which still has Debian's
# python3-gi and numpy, making its venv first when it is missing: webrtc_camera.py runs on it so
# Layerwatch is tested against current aiortc as well as Debian's 1.4 (/usr/bin/python3).
# The venv lives in the user's cache, named for the list's hash (a changed list makes a new one);
# test runs that start together wait for the one making it. Needs python3-venv and PyPI.
set -eu
list="$(cd "$(dirname "$0")" && pwd)/pypi-aiortc.txt"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/layerwatch-tests"
venv="$cache/aiortc-$(sha256sum "$list" | cut -c1-12)"
mkdir -p "$cache"
exec 9>"$cache/aiortc.lock"
flock 9
if [ ! -e "$venv/complete" ]; then
    rm -rf "$venv"
    # System site packages for python3-gi (clockblocks.py) and numpy; the venv's own come first.
    /usr/bin/python3 -m venv --system-site-packages "$venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --requirement "$list" >&2
    touch "$venv/complete"
fi
wanted=$(sed -n 's/^aiortc==//p' "$list")
found=$("$venv/bin/python" -c 'import aiortc; print(aiortc.__version__)')
if [ "$found" != "$wanted" ]; then
    echo "$venv has aiortc $found, not $wanted" >&2
    exit 1
fi
echo "$venv/bin/python"
