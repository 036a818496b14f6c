#!/bin/sh
# callgrind_window.sh BENCH KIND AGENTS STEPS [bench arguments...]
# Instructions per agent-step of the timed window of `steer-bench KIND
# --agents AGENTS --steps STEPS ...` only: valgrind starts with
# instrumentation off (the setup and any --skip steps run at about a tenth
# of callgrind's cost) and the bench counts its window
# (bench_window_begin/_end, tests/bench/bench.h). Deterministic. A jam
# 450 steps in takes minutes instead of the 40 of callgrind_per_step.sh:
#   tests/tools/callgrind_window.sh build/tests/steer-bench crowd 10000 5 --scene disc --skip 450
# Only the benches that call bench_window_begin (crowd) count anything.
set -eu
bench=$1 kind=$2 agents=$3 steps=$4
shift 4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
STEER_BENCH_WINDOW=1 valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$tmp/out" "$bench" "$kind" --agents "$agents" \
  --steps "$steps" "$@" >/dev/null 2>"$tmp/err"
[ -f "$tmp/out.1" ] || { echo "callgrind_window.sh: no window counted (is $bench built with valgrind/callgrind.h?)" >&2; exit 1; }
ir=$(grep -E '^(summary|totals):' "$tmp/out.1" | head -1 | awk '{print $2}')
awk -v ir="$ir" -v n="$agents" -v s="$steps" -v k="$kind" \
  'BEGIN { printf "%s %d agents: %.1f instructions per agent-step (window of %d steps: %.0f)\n", k, n, ir / s / n, s, ir }'
