#!/bin/sh
# xvfb_keys.sh VIEWER SCRIPT DIR [CHECK_SHOT]: run under xvfb-run. Opens a real X11 window,
# sends keys with xdotool and checks the screenshots the viewer writes on P:
# running changes the picture, space pauses it (two shots equal), '.' steps
# once (the next shot differs), D adds the debug layers (differs again),
# after zooming out with the wheel F fits again (differs, and a second F
# gives the same picture), C follows the selected agent (--inspect selected
# it): after steps its ring is at the centre (CHECK_SHOT --selection-centred);
# Esc quits. Waits are bounded polls on files and windows, never a fixed sleep
# standing in for an answer.
set -u
V=$1 SCRIPT=$2 DIR=$3 CHECK=${4:-}
rm -rf "$DIR" && mkdir -p "$DIR"
LOG="$DIR/log.txt"
"$V" "$SCRIPT" --shot-key-dir "$DIR" --size 800x600 --software --inspect > "$LOG" 2>&1 &
PID=$!
. "$(dirname "$0")/xvfb_start.sh"
N=0
# shot: press P, wait until the file exists; its path in SHOT (no
# subshell: N must advance)
shot() {
  SHOT=$(printf '%s/shot-%03d.png' "$DIR" "$N")
  N=$((N + 1))
  xdotool key --window "$WID" p
  # (up to 30 s: a loaded machine draws slowly)
  for i in $(seq 1200); do [ -s "$SHOT" ] && break; sleep 0.025; done
  [ -s "$SHOT" ] || fail "no screenshot $SHOT"
}
shot; first=$SHOT
# running: some later shot differs (the agents move)
moved=no
for t in $(seq 20); do
  shot; s=$SHOT
  if ! cmp -s "$first" "$s"; then moved=yes; break; fi
done
[ $moved = yes ] || fail "running did not change the picture"
xdotool key --window "$WID" space
shot; a=$SHOT; shot; b=$SHOT
cmp -s "$a" "$b" || fail "paused, but two shots differ"
xdotool key --window "$WID" period
shot; c=$SHOT
cmp -s "$b" "$c" && fail "'.' did not step"
shot; d=$SHOT
cmp -s "$c" "$d" || fail "paused after '.', but two shots differ"
xdotool key --window "$WID" d
shot; e=$SHOT
cmp -s "$d" "$e" && fail "D did not change the picture"
# the camera: zoom out (wheel, over the world left of the inspector), then F fits again
xdotool mousemove --window "$WID" 100 300 click 5 click 5
shot; zoomed=$SHOT
cmp -s "$e" "$zoomed" && fail "the wheel did not zoom"
xdotool key --window "$WID" f
shot; fitted=$SHOT
cmp -s "$zoomed" "$fitted" && fail "F did not fit"
xdotool key --window "$WID" f
shot; again=$SHOT
cmp -s "$fitted" "$again" || fail "a second F moved the camera of a paused world"
# follow: C, then three steps; the selected agent's ring is at the centre
xdotool key --window "$WID" c period period period
shot; followed=$SHOT
if [ -n "$CHECK" ]; then "$CHECK" --selection-centred "$followed" || fail "C did not centre the selected agent"; fi
xdotool key --window "$WID" Escape
for i in $(seq 200); do kill -0 "$PID" 2>/dev/null || break; sleep 0.05; done
kill -0 "$PID" 2>/dev/null && fail "Esc did not quit"
wait "$PID" || fail "viewer exited with an error"
echo "ok: $N screenshots"
