#!/bin/sh
# callgrind_per_step.sh BENCH KIND AGENTS [STEPS_A STEPS_B]
# Instructions per agent-step of `steer-bench KIND --agents AGENTS`, without
# the setup: (Ir of STEPS_B steps - Ir of STEPS_A steps) / (STEPS_B - STEPS_A) / AGENTS.
# Deterministic (callgrind counts instructions, not time). Further arguments
# of the bench go in BENCH_ARGS. Examples:
#   tests/tools/callgrind_per_step.sh build/tests/steer-bench flock 20000
#   BENCH_ARGS="--scene disc --skip 60" tests/tools/callgrind_per_step.sh build/tests/steer-bench crowd 10000
set -eu
bench=$1 kind=$2 agents=$3 a=${4:-5} b=${5:-15}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ir() {
  valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$bench" "$kind" --agents "$agents" --steps "$1" ${BENCH_ARGS:-} >/dev/null 2>"$tmp/err"
  grep -E '^(summary|totals):' "$tmp/out" | head -1 | awk '{print $2}'
}
ia=$(ir "$a"); ib=$(ir "$b")
awk -v ia="$ia" -v ib="$ib" -v n="$agents" -v s=$((b - a)) -v k="$kind" \
  'BEGIN { printf "%s %d agents: %.1f instructions per agent-step (%d steps: %.0f, %d steps: %.0f)\n", k, n, (ib - ia) / s / n, '"$a"', ia, '"$b"', ib }'
