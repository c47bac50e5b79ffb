#!/usr/bin/env bash
# Renders docs/screenshots/wayland-*.png from the real app under Wayland: weston 10 headless (pixman,
# its desktop shell, so the windows wear GTK's client-side decorations), GDK_BACKEND=wayland and the
# cairo renderer. Shots: the welcome page, the demo printer, its Add Printer dialog and its mini
# window (with the keep-above hint Wayland needs). Run `make screenshots-wayland` (it builds and runs
# this under dbus-run-session); OUT=/some/dir writes the PNGs there instead.
#
# Weston's headless backend has no seat: no keyboard, no pointer, so no key can be sent. The dialog
# and the mini window are opened through the window's actions on the session bus instead
# (org.gtk.Actions.Activate of win.add-printer, what Ctrl+T runs; the mini window restored from the config).
# The screenshots come from weston's screenshooter protocol, which weston 10 offers every client
# when started with --debug (weston-screenshooter writes the whole output); ImageMagick trims them
# to the windows and their shadows.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-docs/screenshots}
app=$PWD/.build/debug/layerwatch
mkdir -p "$out"
out=$(cd "$out" && pwd)
[ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] || { echo "run under dbus-run-session (make screenshots-wayland)" >&2; exit 2; }

work=$(mktemp -d)
XDG_RUNTIME_DIR=$work/runtime
mkdir -m 700 "$XDG_RUNTIME_DIR"
export XDG_RUNTIME_DIR
export WAYLAND_DISPLAY=layerwatch-shots GDK_BACKEND=wayland GSK_RENDERER=cairo NO_AT_BRIDGE=1
unset DISPLAY
# A plain backdrop (trimmed off), no panel, no animation: what the shot shows is the app alone.
background='#c0bfbc'
cat > "$work/weston.ini" <<INI
[core]
idle-time=0
[shell]
background-color=0xffc0bfbc
panel-position=none
locking=false
animation=none
close-animation=none
startup-animation=none
focus-animation=none
INI

pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

weston --backend=headless-backend.so --use-pixman --width=1400 --height=1000 --socket="$WAYLAND_DISPLAY" \
    --config="$work/weston.ini" --debug --idle-time=0 > "$work/weston.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -S "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY" ] && break; sleep 0.1; done
[ -S "$XDG_RUNTIME_DIR/$WAYLAND_DISPLAY" ] || { cat "$work/weston.log" >&2; exit 1; }

# capture NAME: the whole output through the screenshooter, trimmed to what is not backdrop.
capture() {
    local dir=$work/shot
    rm -rf "$dir"
    mkdir "$dir"
    (cd "$dir" && weston-screenshooter)
    convert "$dir"/*.png -bordercolor "$background" -border 1 -fuzz 0 -trim +repage "$out/$1.png"
    echo "wrote $out/$1.png"
}

# The window's actions on the bus (GtkApplication exports them per window).
activate() {
    gdbus call --session --dest io.github.layerwatch.Layerwatch \
        --object-path /io/github/layerwatch/Layerwatch/window/1 \
        --method org.gtk.Actions.Activate "$1" '[]' '{}' > /dev/null
}

# shot NAME WIDTH HEIGHT SETTLE_SECONDS [ACTION|-] [layerwatch arguments...]: a config of its own
# (the window's size saved there; the saved printers and mini windows $PRINTERS and $MINIS, none
# unless set), so each run starts the same.
shot() {
    local name=$1 width=$2 height=$3 settle=$4 action=$5
    shift 5
    XDG_CONFIG_HOME=$(mktemp -d -p "$work")
    XDG_STATE_HOME=$(mktemp -d -p "$work")
    export XDG_CONFIG_HOME XDG_STATE_HOME
    mkdir -p "$XDG_CONFIG_HOME/layerwatch"
    echo "{\"formatVersion\": 3, \"printers\": ${PRINTERS:-[]}, \"miniWindows\": ${MINIS:-[]}," \
         "\"window\": {\"width\": $width, \"height\": $height, \"maximized\": false}}" > "$XDG_CONFIG_HOME/layerwatch/printers.json"
    "$app" "$@" > "$work/$name.log" 2>&1 &
    local pid=$!
    # Mapped: its actions are on the bus.
    for _ in $(seq 200); do
        gdbus introspect --session --dest io.github.layerwatch.Layerwatch \
            --object-path /io/github/layerwatch/Layerwatch/window/1 > /dev/null 2>&1 && break
        sleep 0.1
    done
    sleep "$settle"
    if [ "$action" != "-" ]; then
        activate "$action"
        sleep 2.5
    fi
    capture "wayland-$name"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    # The next app must not find this one's name on the bus.
    while gdbus introspect --session --dest io.github.layerwatch.Layerwatch --object-path / > /dev/null 2>&1; do sleep 0.1; done
}

shot welcome 960 680 2 -
shot demo 960 680 3 - --demo
shot dialog 960 680 2 add-printer --demo
# A mini window as the app restores it (a picture's pop-out is its own widget's action, which the
# bus does not carry): a saved camera of the demo clip, popped out when the app last ran.
clip=6F9619FF-8B86-D011-B42D-00CF4FC96530
PRINTERS="[{\"id\": \"$clip\", \"name\": \"Demo clip\", \"kind\": \"generic\", \"cameras\": [{\"id\": \"7F9619FF-8B86-D011-B42D-00CF4FC96530\", \"url\": \"$PWD/data/demo-printer.mp4\"}]}]" \
MINIS="[{\"printerID\": \"$clip\", \"width\": 480, \"height\": 270}]" shot mini 960 680 3 -
