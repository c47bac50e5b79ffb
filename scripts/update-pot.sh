#!/bin/sh
# Regenerates the translation template from the files listed in po/POTFILES.
#   scripts/update-pot.sh [OUTPUT]   — OUTPUT defaults to po/layerwatch.pot
# Then, for each language: msgmerge --update po/LANG.po po/layerwatch.pot
set -eu
repository=$(cd "$(dirname "$0")/.." && pwd)
output=$(realpath -m "${1:-$repository/po/layerwatch.pot}")
cd "$repository"

swift_files=$(mktemp) other_files=$(mktemp) template=$(mktemp)
trap 'rm -f "$swift_files" "$other_files" "$template"' EXIT
grep -v -e '^#' -e '^[[:space:]]*$' po/POTFILES | while read -r file; do
    if [ ! -f "$file" ]; then
        echo "warning: $file, listed in po/POTFILES, does not exist; skipped" >&2
        continue
    fi
    case $file in
        *.swift) echo "$file" >>"$swift_files" ;;
        *) echo "$file" >>"$other_files" ;;
    esac
done

set -- --from-code=UTF-8 --add-comments=TRANSLATORS: --package-name=layerwatch \
    --msgid-bugs-address=https://github.com/layerwatch/layerwatch/issues --output="$template"
# xgettext does not know Swift; its plain "…" literals read as Objective-C, which also marks the
# strings with %@ as objc-format so msgfmt --check verifies their placeholders in each translation.
xgettext "$@" --language=ObjectiveC --keyword=tr --keyword=trPlural:1,2 --files-from="$swift_files"
# The rest by extension (GtkBuilder .ui, desktop file, metainfo), added to the same template.
if [ -s "$other_files" ]; then
    xgettext "$@" --join-existing --files-from="$other_files"
fi
cp "$template" "$output"
