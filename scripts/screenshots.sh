#!/usr/bin/env bash
# Renders docs/screenshots/*.png from the real app under Xvfb: the welcome page, wide and tall layouts
# of the demo printer (its simulated print), connecting (a host that never answers), access code rejected (a loopback 1080p RTSPS
# server), the stats overlay (on that server, with the right code), that camera zoomed 2× and
# being recorded, tabs, the dialog and a mini window of that camera, a Klipper printer mid-print (the status strip and
# print controls, from a loopback Moonraker) with its camera list and its stop question, the farm view of six printers
# and a Bambu printer's AMS trays (the filament swatches), a farm of the newer families (Elegoo,
# Flashforge, Prusa); then the welcome page, the demo printer and
# the Add Printer dialog dark (ADW_DEBUG_COLOR_SCHEME=prefer-dark, libadwaita's stand-in for the
# desktop's dark style), and the welcome page and the Add Printer dialog 360 px wide (a phone's
# width). Run `make screenshots`
# (it builds first and runs this under xvfb-run). OUT=dir writes the PNGs there instead of
# docs/screenshots; ONLY="name …" takes only those shots.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-docs/screenshots}
app=.build/debug/layerwatch
mkdir -p "$out"
export GSK_RENDERER=cairo GDK_BACKEND=x11 NO_AT_BRIDGE=1
# A config and state of their own: the shots never show (or change) the user's printers, nor what
# the user's notifications remember.
XDG_CONFIG_HOME=$(mktemp -d)
XDG_STATE_HOME=$(mktemp -d)
export XDG_CONFIG_HOME XDG_STATE_HOME
# The recording shot's file goes to a Videos folder of its own (GLib reads user-dirs.dirs there).
echo "XDG_VIDEOS_DIR=\"$(mktemp -d)\"" > "$XDG_CONFIG_HOME/user-dirs.dirs"

pids=()
openbox --sm-disable > /dev/null 2>&1 &
pids+=($!)
sleep 1
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT

# start_server VAR SCRIPT [ARGS...]: starts a server from Tests/Servers (its stdin held open by a
# sleep, so it ends with this script) and stores its port in VAR.
start_server() {
    local var=$1 log
    log=$(mktemp)
    /usr/bin/python3 "Tests/Servers/$2" "${@:3}" < <(exec sleep 600) > "$log" 2>/dev/null &
    pids+=($!)
    for _ in $(seq 100); do
        grep -q '"ready"' "$log" && break
        sleep 0.1
    done
    printf -v "$var" '%s' "$(sed -n 's/.*"port": *\([0-9]*\).*/\1/p' "$log" | head -1)"
}

# shot NAME WIDTH HEIGHT SETTLE_SECONDS [KEYS|-] [layerwatch arguments...]; KEYS may be several,
# space-separated ("plus plus").
# A shot named *-360 narrows its dialog (if any) to 360 px too.
shot() {
    local name=$1 width=$2 height=$3 settle=$4 keys=$5
    shift 5
    if [ -n "${ONLY:-}" ] && [[ " $ONLY " != *" $name "* ]]; then return; fi
    "$app" "$@" > /dev/null 2>&1 &
    local pid=$!
    local window
    # A window without a tab (the welcome page) is titled "Layerwatch" alone.
    window=$(xdotool search --sync --onlyvisible --limit 1 --name "^(.* — )?Layerwatch$")
    xdotool windowsize "$window" "$width" "$height"
    # A dialog shot: the window in the corner first, so its dialog opens over it there.
    if [ "$name" = stop ]; then xdotool windowmove "$window" 0 0; fi
    sleep "$settle"
    if [ "$keys" != "-" ]; then
        # shellcheck disable=SC2086 # several keys are several words
        xdotool windowactivate --sync "$window" key --delay 150 $keys
        sleep 2.5
    fi
    case "$name" in
        dialog*)
            local dialog
            dialog=$(xdotool search --limit 1 --name '^Add Printer$')
            if [[ "$name" == *-360 ]]; then
                xdotool windowsize "$dialog" 360 "$height"
                sleep 1.5
            fi
            import -window "$dialog" "$out/$name.png" ;;
        cameras) import -window "$(xdotool search --limit 1 --name '^Edit Printer$')" "$out/$name.png" ;;
        stop) import -window root -crop "${width}x${height}+0+0" "$out/$name.png" ;;
        mini)
            xdotool windowmove "$window" 20 20
            xdotool windowmove "$(xdotool search --limit 1 --name ' - PiP$')" $((width - 200)) $((height - 120))
            sleep 1
            import -window root -crop "$((width + 320))x$((height + 200))+0+0" "$out/$name.png" ;;
        *) import -window "$window" "$out/$name.png" ;;
    esac
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    # The next shot must not find this window while the X server still tears it down.
    while xdotool search --onlyvisible --name "^(.* — )?Layerwatch$" > /dev/null 2>&1; do sleep 0.1; done
    echo "wrote $out/$name.png"
}

shot welcome 1000 680 2 -
shot wide 1400 620 3 - --demo
shot tall 620 900 3 - --demo

start_server silent silent_server.py
shot connecting 900 620 3.2 - "rtsp://127.0.0.1:$silent/streaming/live/1"

start_server rtsps rtsp_server.py --tls --user bblp --password 12345678 --width 1920 --height 1080
shot failed 900 620 3 - "rtsps://bblp:00000000@127.0.0.1:$rtsps/streaming/live/1"
shot stats 1000 680 3 ctrl+i "rtsps://bblp:12345678@127.0.0.1:$rtsps/streaming/live/1"
shot zoom 1000 680 3 "plus plus ctrl+shift+r" "rtsps://bblp:12345678@127.0.0.1:$rtsps/streaming/live/1"

start_server mjpeg mjpeg_server.py
demo=data/demo-printer.mp4
shot tabs 1100 700 3 - "$demo" "http://127.0.0.1:$mjpeg/?action=stream" "rtsp://127.0.0.1:$silent/streaming/live/1"
shot dialog 1000 700 2 ctrl+t
shot mini 1000 640 2 ctrl+shift+p "rtsps://bblp:12345678@127.0.0.1:$rtsps/streaming/live/1"

# A Klipper printer with two cameras mid-print: Moonraker told the print's state through a FIFO
# on its stdin, the printer saved in the config the app starts with; then its Edit Printer dialog.
# start_fake PORT_VAR FD_VAR SCRIPT [ARGS...]: a loopback fake printer (Tests/Servers/SCRIPT) whose
# stdin is a FIFO held open on a new file descriptor, stored in FD_VAR (write commands to it), its
# port in PORT_VAR; start_moonraker PORT_VAR FD_VAR: a Moonraker so.
fifos=()
start_fake() {
    local fifo log fd
    fifo=$(mktemp -u)
    mkfifo "$fifo"
    fifos+=("$fifo")
    log=$(mktemp)
    /usr/bin/python3 "Tests/Servers/$3" "${@:4}" < "$fifo" > "$log" 2>/dev/null &
    pids+=($!)
    exec {fd}>"$fifo"
    for _ in $(seq 100); do grep -q '"ready"' "$log" && break; sleep 0.1; done
    printf -v "$1" '%s' "$(sed -n 's/.*"port": *\([0-9]*\).*/\1/p' "$log" | head -1)"
    printf -v "$2" '%s' "$fd"
}
start_moonraker() { start_fake "$1" "$2" moonraker_server.py; }
start_moonraker moonraker moonraker_in
echo '{"cmd":"set","status":{"print_stats":{"state":"printing","filename":"voron_cube_0.2mm_ABS.gcode","print_duration":2520,"info":{"current_layer":57,"total_layer":180}},"display_status":{"progress":0.42},"extruder":{"temperature":244.6,"target":245},"heater_bed":{"temperature":99.8,"target":100}}}' >&"$moonraker_in"
mkdir -p "$XDG_CONFIG_HOME/layerwatch"
cat > "$XDG_CONFIG_HOME/layerwatch/printers.json" <<JSON
{"formatVersion": 3, "printers": [{"id": "6F9619FF-8B86-D011-B42D-00CF4FC964FF", "name": "Voron 2.4",
  "kind": "klipper", "host": "127.0.0.1", "apiPort": $moonraker, "cameras": [
    {"id": "7F9619FF-8B86-D011-B42D-00CF4FC964FF", "name": "Nozzle", "url": "http://127.0.0.1:$mjpeg/?action=stream"},
    {"id": "8F9619FF-8B86-D011-B42D-00CF4FC964FF", "name": "Chamber", "url": "rtsps://bblp:12345678@127.0.0.1:$rtsps/streaming/live/1", "rotation": 180}]}]}
JSON
shot status 1100 680 4 -
shot cameras 1100 680 3 ctrl+e
shot stop 1100 680 4 ctrl+alt+period

# The farm view: that printer finishing, a second Klipper printer paused (its own Moonraker, told
# through a second FIFO), an MJPEG camera, the RTSPS camera, the demo and a camera that refuses
# (in trouble: reconnecting).
start_moonraker paused paused_in
echo '{"cmd":"set","status":{"print_stats":{"state":"printing","print_duration":5400},"display_status":{"progress":0.95}}}' >&"$moonraker_in"
echo '{"cmd":"set","status":{"print_stats":{"state":"paused","filename":"gearbox_housing_PETG.gcode","print_duration":1800},"display_status":{"progress":0.18}}}' >&"$paused_in"
cat > "$XDG_CONFIG_HOME/layerwatch/printers.json" <<JSON
{"formatVersion": 2, "printers": [
  {"id": "6F9619FF-8B86-D011-B42D-00CF4FC964FF", "name": "Voron 2.4", "kind": "klipper", "host": "127.0.0.1",
   "apiPort": $moonraker, "url": "rtsps://bblp:12345678@127.0.0.1:$rtsps/streaming/live/1"},
  {"id": "6F9619FF-8B86-D011-B42D-00CF4FC96500", "name": "Ender 3 V3", "kind": "klipper", "host": "127.0.0.1",
   "apiPort": $paused, "url": "http://127.0.0.1:$mjpeg/?action=stream"},
  {"id": "6F9619FF-8B86-D011-B42D-00CF4FC96501", "name": "Prusa MK4", "kind": "generic", "url": "$PWD/$demo"},
  {"id": "6F9619FF-8B86-D011-B42D-00CF4FC96502", "name": "Garage cam", "kind": "generic", "url": "http://127.0.0.1:$mjpeg/?action=stream&n=2"},
  {"id": "6F9619FF-8B86-D011-B42D-00CF4FC96503", "name": "Door cam", "kind": "generic", "url": "rtsp://127.0.0.1:1/live"}]}
JSON
shot farm 1300 720 5 - --farm
rm -f "$XDG_CONFIG_HOME/layerwatch/printers.json" "${fifos[@]}"

# A Bambu P1S with an AMS mid-print, the black PLA feeding: its MQTT from bambu_mqtt_printer.py (told
# through a FIFO), its camera from bambu_jpeg_server.py on port 6000 of a loopback address of its own.
bambu_host=127.23.45.67
bambu_fifo=$(mktemp -u)
mkfifo "$bambu_fifo"
bambu_log=$(mktemp)
/usr/bin/python3 Tests/Servers/bambu_mqtt_printer.py --bind "$bambu_host" --code 12345678 --model P1S --partial \
    < "$bambu_fifo" > "$bambu_log" 2>/dev/null &
pids+=($!)
exec {bambu_in}>"$bambu_fifo"
for _ in $(seq 100); do grep -q '"ready"' "$bambu_log" && break; sleep 0.1; done
bambu_mqtt=$(sed -n 's/.*"port": *\([0-9]*\).*/\1/p' "$bambu_log" | head -1)
bambu_serial=$(sed -n 's/.*"serial": *"\([^"]*\)".*/\1/p' "$bambu_log" | head -1)
start_server bambu_camera bambu_jpeg_server.py --bind "$bambu_host" --port 6000 --width 1280 --height 720 --fps 1
echo '{"cmd":"set","print":{"gcode_state":"RUNNING","subtask_name":"Benchy_0.2mm_PLA","mc_percent":42,"layer_num":57,"total_layer_num":180,"mc_remaining_time":72,"nozzle_temper":219.6,"nozzle_target_temper":220,"bed_temper":55.2,"bed_target_temper":55,"chamber_temper":31,"ams":{"ams":[{"id":"0","humidity":"4","temp":"24.0","tray":[{"id":"0","tray_type":"PLA","tray_sub_brands":"PLA Basic","tray_color":"F72323FF","remain":80},{"id":"1","tray_type":"PLA","tray_sub_brands":"PLA Matte","tray_color":"000000FF","remain":35},{"id":"2","tray_type":"PETG","tray_sub_brands":"PETG HF","tray_color":"0A2989FF","remain":-1},{"id":"3"}]}],"tray_now":"1"},"vt_tray":{"id":"254","tray_type":"TPU","tray_color":"FFFFFFFF","remain":0}}}' >&"$bambu_in"
cat > "$XDG_CONFIG_HOME/layerwatch/printers.json" <<JSON
{"formatVersion": 3, "printers": [{"id": "6F9619FF-8B86-D011-B42D-00CF4FC96510", "name": "P1S Workshop", "kind": "bambuJPEG",
  "model": "C12", "host": "$bambu_host", "apiPort": $bambu_mqtt, "serial": "$bambu_serial", "accessCode": "12345678", "cameras": []}]}
JSON
shot filament 1100 700 5 -
rm -f "$XDG_CONFIG_HOME/layerwatch/printers.json" "$bambu_fifo"

# A farm of the newer families, each from its own fake printer, all printing: an Elegoo Centauri
# Carbon (its SDCP websocket on 3030 and its own MJPEG camera on 3031, on a loopback address of its
# own), a Flashforge Adventurer 5M (its camera the MJPEG stream its /detail names) and a Prusa Core
# One through PrusaLink without a camera (the job's thumbnail in the camera's place).
elegoo_host=127.31.0.1
start_fake elegoo elegoo_in elegoo_sdcp_server.py --bind "$elegoo_host" --port 3030 --camera-port 3031
echo '{"cmd":"set","fields":{"TempOfNozzle":220.4,"TempTargetNozzle":220,"TempOfHotbed":60.1,"TempTargetHotbed":60,"TempOfBox":31,"LightStatus":{"SecondLight":1},"PrintInfo":{"Status":13,"Filename":"/local/phone_stand_PLA.gcode","Progress":64,"CurrentLayer":115,"TotalLayer":180,"CurrentTicks":2900,"TotalTicks":4500}}}' >&"$elegoo_in"
start_fake flashforge flashforge_in flashforge_server.py --serial SNMOMC9900001 --check-code 31415926
echo '{"cmd":"set","detail":{"status":"printing","printFileName":"cable_clip_PETG.gx","printProgress":0.27,"printLayer":31,"targetPrintLayer":120,"estimatedTime":3300,"rightTemp":240.2,"rightTargetTemp":240,"platTemp":80.1,"platTargetTemp":80,"lightStatus":"open"}}' >&"$flashforge_in"
start_fake prusa prusa_in prusalink_server.py --password Pr1ntPass
echo '{"cmd":"thumbnail","width":440,"height":290}' >&"$prusa_in"
echo '{"cmd":"set","printer":{"state":"PRINTING","temp_nozzle":230.1,"target_nozzle":230,"temp_bed":90.2,"target_bed":90},"job":{"id":7,"progress":81,"time_remaining":1500,"time_printing":6300,"file":{"name":"WALL_H~1.BGC","display_name":"wall_hook_PETG.bgcode"}}}' >&"$prusa_in"
cat > "$XDG_CONFIG_HOME/layerwatch/printers.json" <<JSON
{"formatVersion": 3, "printers": [
  {"id": "6F9619FF-8B86-D011-B42D-00CF4FC96520", "name": "Centauri Carbon", "kind": "elegoo", "host": "$elegoo_host", "cameras": []},
  {"id": "6F9619FF-8B86-D011-B42D-00CF4FC96521", "name": "Adventurer 5M", "kind": "flashforge", "host": "127.0.0.1",
   "apiPort": $flashforge, "serial": "SNMOMC9900001", "accessCode": "31415926",
   "cameras": [{"id": "7F9619FF-8B86-D011-B42D-00CF4FC96521", "url": "http://127.0.0.1:$mjpeg/?action=stream&n=3"}]},
  {"id": "6F9619FF-8B86-D011-B42D-00CF4FC96522", "name": "Core One", "kind": "prusalink", "host": "127.0.0.1",
   "apiPort": $prusa, "accessCode": "Pr1ntPass", "cameras": []}]}
JSON
shot families 1300 720 6 - --farm
rm -f "$XDG_CONFIG_HOME/layerwatch/printers.json" "${fifos[@]}"

# Dark (libadwaita 1.2 reads ADW_DEBUG_COLOR_SCHEME as the desktop's preference; the app's
# appearance follows the system unless set) and 360 px wide: the welcome page, the demo printer, the
# Add Printer dialog at its narrowest.
ADW_DEBUG_COLOR_SCHEME=prefer-dark shot welcome-dark 1000 680 2 -
ADW_DEBUG_COLOR_SCHEME=prefer-dark shot demo-dark 1000 680 3 - --demo
ADW_DEBUG_COLOR_SCHEME=prefer-dark shot dialog-dark 1000 700 2 ctrl+t
shot welcome-360 360 680 2 -
shot dialog-360 360 720 2 ctrl+t
