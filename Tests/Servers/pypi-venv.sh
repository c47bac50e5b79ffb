#!/bin/sh
# Prints the path of a venv holding PyPI's packages of pypi-NAME.txt, making it first when it is
# missing (pypi-aiortc.sh and pypi-octoprint.sh use it). The venv lives in the user's cache, named
# for the list's hash (a changed list makes a new one); test runs that start together wait for the
# one making it. Further arguments go to `python3 -m venv` (`--system-site-packages`). Needs
# python3-venv and PyPI.
set -eu
name=$1
shift
list="$(cd "$(dirname "$0")" && pwd)/pypi-$name.txt"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/layerwatch-tests"
venv="$cache/$name-$(sha256sum "$list" | cut -c1-12)"
mkdir -p "$cache"
exec 9>"$cache/$name.lock"
flock 9
if [ ! -e "$venv/complete" ]; then
    rm -rf "$venv"
    /usr/bin/python3 -m venv "$@" "$venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --requirement "$list" >&2
    touch "$venv/complete"
fi
echo "$venv"
