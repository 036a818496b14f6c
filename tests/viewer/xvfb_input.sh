#!/bin/sh
# xvfb_input.sh VIEWER SCRIPT DIR: run under xvfb-run (800x600). Drives a real
# X11 window with xdotool and reads what the viewer and the script
# (input_probe.lua) print:
# - clicks on the inspector (a column through its tree arrows and headers,
#   one through its value fields, one on blank panel, and one right over an
#   agent under it) neither select nor deselect an agent nor reach the script;
# - a click on the world reaches the script once, as a press and a release,
#   however short, and deselects;
# - holding A presses it once (input.pressed), held for many updates;
# - the viewer's keys (D, space) never reach input.keys.
# Waits are bounded polls on the log, never a fixed sleep standing in for an answer.
set -u
V=$1 SCRIPT=$2 DIR=$3
rm -rf "$DIR" && mkdir -p "$DIR"
LOG="$DIR/log.txt"
"$V" "$SCRIPT" --size 800x600 --camera 0,0,10 --inspect --software > "$LOG" 2>&1 &
PID=$!
. "$(dirname "$0")/xvfb_start.sh"
wait_for "selected agent"
# clicks on the inspector: x 345 (tree arrows, headers), 480 (value fields), 770 (blank), 550 (the agent under it)
n=0
for x in 345 480 770 550; do
  for y in 40 90 140 190 240 300 360 420 480 540; do
    xdotool mousemove --window "$WID" $x $y click 1
    n=$((n + 1))
  done
done
# a marker click on the world: everything before it has been handled when it arrives
xdotool mousemove --window "$WID" 100 550 click 1
wait_for "script: released 1"
grep -q "selection cleared" "$LOG" || fail "the click on the world did not deselect"
clicks=$(grep -c "script: pressed 1" "$LOG")
[ "$clicks" -eq 1 ] || fail "the script saw $clicks clicks; only the one on the world is its"
sel=$(grep -c "selected agent\|selection cleared" "$LOG")
[ "$sel" -eq 2 ] || fail "$n clicks on the inspector changed the selection ($sel selection lines)"
# hold A: one press, many updates held
xdotool keydown --window "$WID" a
wait_for "script: a held 10 updates"
xdotool keyup --window "$WID" a
wait_for "script: a released"
grep -q "script: a released after [0-9]* updates, 1 press(es)" "$LOG" || fail "holding A pressed it more than once"
# the viewer's keys: D twice, space twice, then a marker press of A
xdotool key --window "$WID" d d space space a
wait_for "script: a pressed 2"
grep -q "LEAKED" "$LOG" && fail "a viewer key reached the script"
xdotool key --window "$WID" Escape
for i in $(seq 200); do kill -0 "$PID" 2>/dev/null || break; sleep 0.05; done
kill -0 "$PID" 2>/dev/null && fail "Esc did not quit"
wait "$PID" || fail "viewer exited with an error"
echo "ok: $n clicks on the inspector kept the selection and the script's input; the world click and A once each"
