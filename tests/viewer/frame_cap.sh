#!/bin/sh
# frame_cap.sh VIEWER SCRIPT: run under xvfb-run. A window draws at most one
# frame per 60 Hz step: 90 frames of a running viewer take at least about
# 90 steps' time, so at least 60 steps ran (uncapped, the same 90 frames
# took a few milliseconds: 0 to 10 steps). The bound only leans one way: a
# slow machine runs more steps per frame, never fewer.
set -u
out=$("$1" "$2" --frames 90 --size 320x240 --software 2>&1) || { echo "$out"; echo "FAIL: the viewer failed"; exit 1; }
steps=$(echo "$out" | sed -n 's/.*frames=90 steps=\([0-9]*\) .*/\1/p')
echo "$out" | tail -n 1
[ -n "$steps" ] || { echo "FAIL: no 'frames=90 steps=N' line"; exit 1; }
[ "$steps" -ge 60 ] || { echo "FAIL: 90 frames ran only $steps steps: the frame rate is not capped"; exit 1; }
echo "ok: 90 frames, $steps steps"
