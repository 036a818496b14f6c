# xvfb_start.sh, sourced by the Xvfb tests after they set LOG and started
# the viewer as PID: defines fail and wait_for, then waits (bounded polls,
# up to 60 s: a loaded machine took over 10 s to map the window) for the
# window and for the viewer's running loop ("panels drawn": keys sent
# before it are lost), then takes the window's id (WID). A viewer that
# exits fails at once.
fail() { echo "FAIL: $*"; cat "$LOG"; kill "$PID" 2>/dev/null; exit 1; }
# wait_for TEXT [COUNT]: until the log holds COUNT (default 1) lines with TEXT
wait_for() {
  want=${2:-1}
  for i in $(seq 1200); do
    [ "$(grep -c -- "$1" "$LOG")" -ge "$want" ] && return 0
    kill -0 "$PID" 2>/dev/null || fail "the viewer exited waiting for '$1'"
    sleep 0.025
  done
  fail "no '$1' in the log"
}
WID=""
for i in $(seq 1200); do
  WID=$(xdotool search --name '^steer-viewer$' 2>"$LOG.xdotool" | head -n 1)
  [ -n "$WID" ] && break
  kill -0 "$PID" 2>/dev/null || fail "the viewer exited before its window appeared"
  sleep 0.05
done
# (once, in CI under load, no window was found in 60 s while the viewer ran
# and drew: say what xdotool and the server said, to trace it next time)
[ -n "$WID" ] || fail "no window (DISPLAY=${DISPLAY:-unset}; xdotool: $(cat "$LOG.xdotool");" \
  "windows: $(xdotool search --name . 2>&1 | head -n 5 | tr '\n' ' '))"
wait_for "panels drawn"
# the window once the loop runs: SDL may have made it again for its renderer
# (the first id then names no window)
WID=$(xdotool search --name '^steer-viewer$' 2>/dev/null | tail -n 1)
[ -n "$WID" ] || fail "no window after the first frames"
xdotool windowfocus --sync "$WID" 2>/dev/null || true
