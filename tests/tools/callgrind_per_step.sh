#!/bin/sh
# callgrind_per_step.sh BENCH KIND AGENTS [STEPS_A STEPS_B]
# Instructions per agent-step of `steer-bench KIND --agents AGENTS`, without
# the setup: (Ir of STEPS_B steps - Ir of STEPS_A steps) / (STEPS_B - STEPS_A) / AGENTS.
# Deterministic (callgrind counts instructions, not time). Further arguments
# of the bench go in BENCH_ARGS. With CACHE=1 the cache and the branch
# predictor are simulated too (slower), and the line also gives L1 data
# read and write misses, last-level misses and mispredicted conditional
# branches per agent-step, the same difference of two runs (so the first
# steps, which sort agents out of spawn order, are left out). Examples:
#   tests/tools/callgrind_per_step.sh build/tests/steer-bench flock 20000
#   CACHE=1 tests/tools/callgrind_per_step.sh build/tests/steer-bench flock 100000 4 8
#   BENCH_ARGS="--scene disc --skip 60" tests/tools/callgrind_per_step.sh build/tests/steer-bench crowd 10000
set -eu
bench=$1 kind=$2 agents=$3 a=${4:-5} b=${5:-15}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sim=
[ "${CACHE:-0}" = 1 ] && sim="--cache-sim=yes --branch-sim=yes"
# the totals line: Ir, then (with the simulation) Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw Bc Bcm
run() {
  valgrind --tool=callgrind $sim --callgrind-out-file="$tmp/out" "$bench" "$kind" --agents "$agents" --steps "$1" ${BENCH_ARGS:-} >/dev/null 2>"$tmp/err"
  grep -E '^(summary|totals):' "$tmp/out" | head -1 | cut -d' ' -f2-
}
ra=$(run "$a"); rb=$(run "$b")
awk -v ra="$ra" -v rb="$rb" -v n="$agents" -v s=$((b - a)) -v k="$kind" -v sa="$a" -v sb="$b" '
  BEGIN {
    na = split(ra, x, " "); split(rb, y, " ")
    d = s * n
    printf "%s %d agents: %.1f instructions per agent-step (%d steps: %.0f, %d steps: %.0f)\n", k, n, (y[1] - x[1]) / d, sa, x[1], sb, y[1]
    if (na >= 12)
      printf "  per agent-step: L1 data misses %.2f read + %.2f write, last-level %.3f, mispredicted conditional branches %.2f\n",
        (y[5] - x[5]) / d, (y[6] - x[6]) / d, (y[8] + y[9] - x[8] - x[9]) / d, (y[11] - x[11]) / d
  }'
