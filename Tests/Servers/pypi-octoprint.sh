#!/bin/sh
# Prints the path of PyPI's OctoPrint (pypi-octoprint.txt), making its venv first when it is
# missing: real_octoprint.py runs it so uploads are tested against a real OctoPrint and its virtual
# printer. The venv lives in the user's cache, named for the list's hash (a changed list makes a
# new one); test runs that start together wait for the one making it. Needs python3-venv and PyPI.
set -eu
list="$(cd "$(dirname "$0")" && pwd)/pypi-octoprint.txt"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/layerwatch-tests"
venv="$cache/octoprint-$(sha256sum "$list" | cut -c1-12)"
mkdir -p "$cache"
exec 9>"$cache/octoprint.lock"
flock 9
if [ ! -e "$venv/complete" ]; then
    rm -rf "$venv"
    /usr/bin/python3 -m venv "$venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --requirement "$list" >&2
    touch "$venv/complete"
fi
wanted=$(sed -n 's/^OctoPrint==//p' "$list")
found=$("$venv/bin/octoprint" --version | sed 's/.* //')
if [ "$found" != "$wanted" ]; then
    echo "$venv has OctoPrint $found, not $wanted" >&2
    exit 1
fi
echo "$venv/bin/octoprint"
