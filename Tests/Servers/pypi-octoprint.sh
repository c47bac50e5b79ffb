#!/bin/sh
# Prints the path of PyPI's OctoPrint (pypi-octoprint.txt), making its venv first when it is
# missing (pypi-venv.sh): real_octoprint.py runs it so uploads are tested against a real OctoPrint
# and its virtual printer.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
venv=$("$here/pypi-venv.sh" octoprint)
wanted=$(sed -n 's/^OctoPrint==//p' "$here/pypi-octoprint.txt")
found=$("$venv/bin/octoprint" --version | sed 's/.* //')
if [ "$found" != "$wanted" ]; then
    echo "$venv has OctoPrint $found, not $wanted" >&2
    exit 1
fi
echo "$venv/bin/octoprint"
