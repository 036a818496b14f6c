#!/bin/sh
# steer-run --watch on a script that does not load: it keeps watching, and
# the next good save loads it (setup runs, update prints). Bounded waits on
# what steer-run printed, never on the clock alone.
# usage: watch_first_load.sh STEER_RUN WORK_DIR
set -u
run=$1 work=$2
mkdir -p "$work"
script=$work/main.lua out=$work/out.txt
printf 'return { roles = { m = }\n' > "$script"
: > "$out"
"$run" "$script" --watch --poll > "$out" 2>&1 &
pid=$!
wait_for() { # wait_for PATTERN: up to 60 s for PATTERN in the output
  i=0
  while ! grep -q "$1" "$out"; do
    i=$((i + 1))
    if [ $i -gt 1200 ] || ! kill -0 $pid 2>/dev/null; then return 1; fi
    sleep 0.05
  done
}
status=0
wait_for "watching" || status=1
cat > "$script.tmp" <<'LUA'
local steer = require 'steer'
return {
  roles = { m = steer.seek{ target = { 5, 0 } } },
  setup = function(world) world:spawn{ role = 'm' } end,
  update = function(world) if world.steps == 3 then print('fixed version runs') end end,
}
LUA
mv "$script.tmp" "$script"
wait_for "fixed version runs" || status=1
kill -TERM $pid 2>/dev/null
wait $pid
cat "$out"
exit $status
