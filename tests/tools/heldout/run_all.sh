#!/bin/sh
# The held-out crowd comparison, steer against RVO2 (README.md). Not a test: nobody tunes on it.
#   STEER_SRC=<steer checkout> RVO2=<RVO2 source dir> SEEDS="1 2 3" ./run_all.sh
#   STEER_SRC=<steer checkout> ./run_all.sh --steer-only     (RVO2 from results/rvo2.txt)
# WORK (default /tmp/heldout-$(id -u)) holds the builds and the raw results; the full run rewrites
# results/rvo2.txt (deterministic for given seeds). Prints one Markdown table.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
STEER_ONLY=0
[ "${1:-}" = "--steer-only" ] && STEER_ONLY=1
STEER_SRC=${STEER_SRC:-$(cd "$HERE/../../.." && pwd)}
SEEDS=${SEEDS:-"1 2 3"}
WORK=${WORK:-/tmp/heldout-$(id -u)}
CC=${CC:-cc}
CXX=${CXX:-c++}
mkdir -p "$WORK/txt"

echo "building steer (Release) from $STEER_SRC into $WORK/steer-build" >&2
{ cmake -S "$STEER_SRC" -B "$WORK/steer-build" -DCMAKE_BUILD_TYPE=Release \
    -DSTEER_BUILD_TESTS=OFF -DSTEER_BUILD_DEMOS=OFF -DSTEER_BUILD_BENCH=OFF >"$WORK/cmake.log" 2>&1 &&
  cmake --build "$WORK/steer-build" -j2 --target steer-lua >>"$WORK/cmake.log" 2>&1; } ||
  { tail -30 "$WORK/cmake.log" >&2; exit 1; }
LUA="$WORK/steer-build/bindings/steer-lua"
STEER_REV=${STEER_REV:-$(git -C "$STEER_SRC" rev-parse --short HEAD 2>/dev/null || echo unknown)}
$CC -std=c11 -O2 -o "$WORK/measure_stream" "$HERE/measure_stream.c" -lm

for f in "$HERE"/layouts/*.lua; do
  "$LUA" "$HERE/to_text.lua" "$f" >"$WORK/txt/$(basename "$f" .lua).txt"
done

if [ "$STEER_ONLY" = 0 ]; then
  : "${RVO2:?set RVO2 to an RVO2 source directory (github.com/snape/RVO2: its src/)}"
  SRC=$RVO2
  [ -d "$RVO2/src" ] && SRC=$RVO2/src
  RVO2_REV=${RVO2_REV:-$(git -C "$RVO2" rev-parse --short HEAD 2>/dev/null || echo unknown)}
  echo "building RVO2 ($RVO2_REV) -O2 -DNDEBUG" >&2
  $CXX -std=c++11 -O2 -DNDEBUG -I "$SRC" -I "$HERE" -o "$WORK/rvo2_driver" "$HERE/rvo2_driver.cc" "$SRC"/*.cc
  {
    echo "# RVO2 $RVO2_REV, -O2 -DNDEBUG, seeds $SEEDS"
    for t in "$WORK"/txt/*.txt; do
      for s in $SEEDS; do "$WORK/rvo2_driver" "$t" "$s"; done
    done
  } >"$WORK/rvo2.txt"
  cp "$WORK/rvo2.txt" "$HERE/results/rvo2.txt"
fi

echo "running steer $STEER_REV" >&2
: >"$WORK/steer-hashes.log"
{
  echo "# steer $STEER_REV, seeds $SEEDS"
  for t in "$WORK"/txt/*.txt; do
    for p in arrive seek; do
      for s in $SEEDS; do
        "$LUA" "$HERE/steer_driver.lua" "$t" "$s" "$p" 2>>"$WORK/steer-hashes.log" |
          "$WORK/measure_stream" "$t" steer "$p" "$s"
      done
    done
  done
} >"$WORK/steer.txt"

echo "steer $STEER_REV against $(head -1 "$HERE/results/rvo2.txt" | sed 's/^# //')"
echo
"$LUA" "$HERE/summarize.lua" "$HERE/results/rvo2.txt" "$WORK/steer.txt"
