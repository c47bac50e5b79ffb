#!/bin/sh
# Runs every test of the built package (`swift build --build-tests` first), as `make test` does:
#   scripts/run-tests.sh
# The suites run in three lanes at once, each its own process with its own Xvfb display and D-Bus
# session (the tests wait on real peers far more than they compute, so lanes overlap the waiting):
#   app    LayerwatchAppTests: the GUI suites, one after the other as ever
#   cli    LayerwatchTests and StatusKitTests: the command line and the status clients
#   core   every other module (StreamKit, PrinterKit, GtkKit, CameraKit…), then the WebRTC suites
#          again with PyPI's current aiortc as the camera (LAYERWATCH_TEST_AIORTC=pypi)
# then the draw path under the two other renderers. A test that failed is run once more, alone on
# the machine: one that passes then is listed as flaky (its first failure stays in the log), one
# that fails again fails the run. The summary at the end names every failure and flaky test.
# Each lane's output is kept whole in $LOGS (default .build/test-logs) and printed after it ends.
set -u
repository=$(cd "$(dirname "$0")/.." && pwd)
cd "$repository"
tests=$(ls -d .build/debug/*PackageTests.xctest 2>/dev/null | head -n 1)
[ -n "$tests" ] || { echo "run-tests: no test bundle in .build/debug: run 'swift build --build-tests' first" >&2; exit 2; }
logs=${LOGS:-.build/test-logs}
rm -rf "$logs" && mkdir -p "$logs"
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

# One run of `specifiers` under its own display and session bus, into $logs/$name.log, stopped
# after `limit` seconds (a hung test ends its lane, named in the summary, instead of CI's time). A
# command put in the background by a shell starts with Ctrl+C (SIGINT) ignored, and the tests'
# command-line children would inherit that: they get the default back (the tests end `--watch`
# runs by SIGINT).
run() { # name limit specifiers [VAR=value...]
    name=$1 limit=$2 specifiers=$3; shift 3
    timeout --kill-after=30 "$limit" env --default-signal=INT,QUIT "$@" \
        dbus-run-session -- xvfb-run -a -s "$screen" "$tests" "$specifiers" >"$logs/$name.log" 2>&1
    echo $? >"$logs/$name.status"
}

started=$(date +%s)
run app 2400 "$(classes LayerwatchAppTests)" &
sleep 3 # xvfb-run -a picks the first free display: one lane at a time
run cli 2400 "$(classes LayerwatchTests StatusKitTests)" &
sleep 3
{ run core 1800 "$(classes -v LayerwatchAppTests LayerwatchTests StatusKitTests)"
  run pypi 1200 "$webrtc_tests" LAYERWATCH_TEST_AIORTC=pypi; } &
wait
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
crashed=""
for lane in app cli core pypi renderer-cairo renderer-gles; do
    # A lane whose run never reached its end crashed or was killed: the tests after it never ran.
    grep -qE "^Test Suite '(All|Selected) tests' (passed|failed)" "$logs/$lane.log" || crashed="$crashed $lane"
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
for lane in app cli core pypi renderer-cairo renderer-gles; do
    printf '%-15s %s\n' "$lane" "$(grep -E '^[[:space:]]+Executed [0-9]+ tests?' "$logs/$lane.log" | tail -n 1 | sed 's/^[[:space:]]*//')"
done
if [ -s "$logs/flaky" ]; then echo "flaky (failed, then passed alone):"; sed 's/^/  /' "$logs/flaky"; fi
if [ -s "$logs/failing" ]; then echo "FAILED (failed twice):"; sed 's/^/  /' "$logs/failing"; fi
for lane in $crashed; do
    echo "CRASHED, hung or killed: lane $lane ($(cat "$logs/$lane.status")), in or after:" \
        "$(grep -E "^Test Case '.*' started" "$logs/$lane.log" | tail -n 1 | cut -d"'" -f2)"
done
# Every test listed ran in one lane: a module no lane names would pass without running.
ran=0
for lane in app cli core; do
    count=$(grep -E '^[[:space:]]+Executed [0-9]+ tests?' "$logs/$lane.log" | tail -n 1 | sed -E 's/.*Executed ([0-9]+) .*/\1/')
    ran=$((ran + ${count:-0}))
done
total=$(wc -l <"$logs/all-tests")
missing=""
if [ "$ran" -ne "$total" ]; then missing=yes; echo "MISSING: $ran of the $total tests listed ran in the lanes"; fi
[ ! -s "$logs/failing" ] && [ -z "$crashed" ] && [ -z "$missing" ]
