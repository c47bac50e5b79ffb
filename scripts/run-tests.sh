#!/bin/sh
# Runs every test of the built package (`swift build --build-tests` first), as `make test` does:
#   scripts/run-tests.sh
# The suites run in three lanes at once, each with its own Xvfb display and D-Bus session (the
# tests wait on real peers far more than they compute, so lanes overlap the waiting):
#   app    the GUI suites (LayerwatchAppTests), a class at a time from a shared queue
#   cli    LayerwatchTests: the command line (its meson build and install the longest), then it
#          takes GUI classes from the queue too
#   core   every other module (StatusKit, StreamKit, PrinterKit, GtkKit, CameraKit, JournalKit…),
#          then the WebRTC suites again with PyPI's current aiortc as the camera
#          (LAYERWATCH_TEST_AIORTC=pypi), then it takes GUI classes from the queue too, so the GUI
#          suites end in three lanes
# then the draw path under the two other renderers. Each GUI class runs in its own process, the
# ones with the most tests first. A test that failed is run once more, alone on the machine: one
# that passes then is listed as flaky (its first failure stays in the log), one that fails again
# fails the run. The summary at the end names every failure and flaky test.
# Each lane's output is kept whole in $LOGS (default .build/test-logs) and printed after it ends.
set -u
repository=$(cd "$(dirname "$0")/.." && pwd)
cd "$repository"
self=$repository/scripts/$(basename "$0")
tests=$(ls -d .build/debug/*PackageTests.xctest 2>/dev/null | head -n 1)
[ -n "$tests" ] || { echo "run-tests: no test bundle in .build/debug: run 'swift build --build-tests' first" >&2; exit 2; }
logs=${LOGS:-.build/test-logs}
queue=$logs/queue

# A lane's GUI worker, inside the lane's display and bus: takes the next class from the queue
# (a rename only one worker can win) and runs it into $logs/gui/Class.log, until none is left.
if [ "${1:-}" = --gui-worker ]; then
    for entry in $(ls "$queue"); do
        mv "$queue/$entry" "$logs/gui/$entry" 2>/dev/null || continue
        class=$(cat "$logs/gui/$entry")
        echo "$class" >>"$logs/gui/order"
        "$tests" "$class" >"$logs/gui/${class#*.}.log" 2>&1
    done
    exit 0
fi

rm -rf "$logs" && mkdir -p "$logs/gui" "$queue"
# -noreset: Xvfb otherwise resets whenever its last client leaves and refuses a connection made
# meanwhile, so a process a test launches between two `xdotool` polls failed "cannot open display".
screen="-screen 0 1600x1200x24 -noreset"

# Every test as Module.Class/test, and the classes of the modules each lane takes.
"$tests" --list-tests 2>/dev/null | grep -E '^[A-Za-z]+Tests\.[A-Za-z0-9_]+/' >"$logs/all-tests" || true
[ -s "$logs/all-tests" ] || { echo "run-tests: the test bundle lists no test" >&2; exit 2; }
classes() { # [-v] modules... → comma-separated Module.Class (with -v: of every other module)
    invert=""; [ "$1" = -v ] && { invert=-v; shift; }
    pattern=$(printf '%s|' "$@"); pattern="^(${pattern%|})\\."
    grep -E $invert "$pattern" "$logs/all-tests" | sed 's#/.*##' | sort -u | paste -sd, -
}
webrtc_tests=$(grep -E 'WebRTC|MJPEGFallbackTests' "$logs/all-tests" | paste -sd, -)
# The queue: a file a GUI class, named so that the classes with the most tests come first.
grep -E '^LayerwatchAppTests\.' "$logs/all-tests" | sed 's#/.*##' | sort | uniq -c | sort -rn |
    awk '{ printf "%05d %s\n", NR, $2 }' | while read -r rank class; do echo "$class" >"$queue/$rank"; done

# One run under its own display and session bus, into $logs/$name.log, stopped after `limit`
# seconds (a hung test ends its lane, named in the summary, instead of CI's time). A command put
# in the background by a shell starts with Ctrl+C (SIGINT) ignored, and the tests' command-line
# children would inherit that: they get the default back (the tests end `--watch` runs by SIGINT).
run() { # name limit specifiers [VAR=value...]
    name=$1 limit=$2 specifiers=$3; shift 3
    timeout --kill-after=30 "$limit" env --default-signal=INT,QUIT "$@" \
        dbus-run-session -- xvfb-run -a -s "$screen" "$tests" "$specifiers" >"$logs/$name.log" 2>&1
    echo $? >"$logs/$name.status"
}
# A lane's turn at the GUI queue, under its own display and bus.
gui() { # name limit
    timeout --kill-after=30 "$2" env --default-signal=INT,QUIT \
        dbus-run-session -- xvfb-run -a -s "$screen" sh "$self" --gui-worker >"$logs/$1.log" 2>&1
    echo $? >"$logs/$1.status"
}

started=$(date +%s)
gui app 2400 &
sleep 3 # xvfb-run -a picks the first free display: one lane at a time
{ run cli 2400 "$(classes LayerwatchTests)"
  gui app-cli 2400; } &
sleep 3
{ run core 1800 "$(classes -v LayerwatchAppTests LayerwatchTests)"
  run pypi 1200 "$webrtc_tests" LAYERWATCH_TEST_AIORTC=pypi
  gui app-core 2400; } &
wait
# The GUI classes' logs, in the order they were taken, as one lane's.
while read -r class; do cat "$logs/gui/${class#*.}.log"; done <"$logs/gui/order" >>"$logs/app.log"
for lane in app cli core pypi; do
    echo "==== lane $lane (exit $(cat "$logs/$lane.status")) ===="
    cat "$logs/$lane.log"
done

# The draw path under the other renderers (RendererPathTests picks GL on Xvfb's Mesa in its lane).
renderer() { # name VAR=value...
    name=$1; shift
    timeout --kill-after=30 300 env --default-signal=INT,QUIT "$@" \
        xvfb-run -a -s "$screen" "$tests" LayerwatchAppTests.RendererPathTests >"$logs/$name.log" 2>&1
    echo $? >"$logs/$name.status"
    echo "==== $name (exit $(cat "$logs/$name.status")) ===="
    cat "$logs/$name.log"
}
renderer renderer-cairo GSK_RENDERER=cairo
renderer renderer-gles GSK_RENDERER=gl GDK_DEBUG=gl-gles

# Failed tests, as Module.Class/test, from XCTest's "Test Case 'Class.test' failed" lines.
failed() { # log...
    sed -n "s/^Test Case '\([A-Za-z0-9_]*\)\.\([A-Za-z0-9_]*\)' failed.*/\1\/\2/p" "$@" | sort -u |
        while read -r test; do grep -m 1 "\.$test\$" "$logs/all-tests" || echo "$test"; done
}
# How many tests a log's run executed, and with how many failures (its last summary line).
executed() { # log... → "tests failures", summed over the logs
    for log in "$@"; do grep -E '^[[:space:]]+Executed [0-9]+ tests?' "$log" | tail -n 1; done |
        sed -E 's/.*Executed ([0-9]+) tests?, with ([0-9]+) failures?.*/\1 \2/' |
        awk '{ tests += $1; failures += $2 } END { print tests + 0, failures + 0 }'
}
gui_logs=$(sed 's#^[A-Za-z]*\.#'"$logs"'/gui/#; s#$#.log#' "$logs/gui/order")
crashed=""
for lane in cli core pypi renderer-cairo renderer-gles $gui_logs; do
    # A run that never reached its end crashed or was killed: the tests after it never ran.
    log=$lane; case $lane in */*) ;; *) log=$logs/$lane.log ;; esac
    grep -qE "^Test Suite '(All|Selected) tests' (passed|failed)" "$log" || crashed="$crashed $lane"
done

: >"$logs/flaky"; : >"$logs/failing"
for lane in app cli core pypi renderer-cairo renderer-gles; do
    case $lane in
        pypi) extra=LAYERWATCH_TEST_AIORTC=pypi ;;
        renderer-cairo) extra=GSK_RENDERER=cairo ;;
        renderer-gles) extra="GSK_RENDERER=gl GDK_DEBUG=gl-gles" ;;
        *) extra="" ;;
    esac
    for test in $(failed "$logs/$lane.log"); do
        echo "==== again, alone: $test ($lane) ===="
        # shellcheck disable=SC2086 # extra holds whole VAR=value words
        run again 600 "$test" $extra
        cat "$logs/again.log"
        if [ "$(cat "$logs/again.status")" = 0 ]; then echo "$test ($lane)" >>"$logs/flaky"
        else echo "$test ($lane)" >>"$logs/failing"; fi
    done
done

echo
echo "==== summary: $(wc -l <"$logs/all-tests") tests in $(($(date +%s) - started)) s ===="
set -- $(executed $gui_logs)
printf '%-15s %s\n' "app (GUI)" "Executed $1 tests, with $2 failures: $(grep -c . "$logs/gui/order") classes, in lanes app, app-cli and app-core"
for lane in cli core pypi renderer-cairo renderer-gles; do
    printf '%-15s %s\n' "$lane" "$(grep -E '^[[:space:]]+Executed [0-9]+ tests?' "$logs/$lane.log" | tail -n 1 | sed 's/^[[:space:]]*//')"
done
if [ -s "$logs/flaky" ]; then echo "flaky (failed, then passed alone):"; sed 's/^/  /' "$logs/flaky"; fi
if [ -s "$logs/failing" ]; then echo "FAILED (failed twice):"; sed 's/^/  /' "$logs/failing"; fi
for lane in $crashed; do
    log=$lane; case $lane in */*) ;; *) log=$logs/$lane.log ;; esac
    echo "CRASHED, hung or killed: ${lane#"$logs/"}, in or after:" \
        "$(grep -E "^Test Case '.*' started" "$log" | tail -n 1 | cut -d"'" -f2)"
done
for lane in app app-cli app-core; do
    [ "$(cat "$logs/$lane.status")" = 0 ] || echo "STOPPED: GUI lane $lane ended with $(cat "$logs/$lane.status") (124: its time ran out)"
done
# Every test listed ran in one lane: a module no lane names would pass without running.
set -- $(executed $gui_logs "$logs/cli.log" "$logs/core.log")
ran=$1
total=$(wc -l <"$logs/all-tests")
missing=""
if [ "$ran" -ne "$total" ]; then missing=yes; echo "MISSING: $ran of the $total tests listed ran in the lanes"; fi
[ ! -s "$logs/failing" ] && [ -z "$crashed" ] && [ -z "$missing" ] &&
    [ "$(cat "$logs/app.status")" = 0 ] && [ "$(cat "$logs/app-cli.status")" = 0 ] && [ "$(cat "$logs/app-core.status")" = 0 ]
