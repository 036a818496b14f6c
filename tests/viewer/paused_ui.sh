#!/bin/sh
# paused_ui.sh VIEWER SCRIPT: the panels of a paused viewer (headless, the
# lines --dump-ui prints): the inspector of an agent selected before any
# step shows every node evaluated (a preview), an inherited limit as
# "inherited" (not -1.000), each blend child's weight as a widget, no label
# cut at the panel's edge; the help overlay has the debug layers' legend.
set -u
out=$("$1" "$2" --headless --paused --inspect --show-help --dump-ui --frames 3 --size 1280x720 2>&1)
echo "$out" | grep "inspector:\|legend:" | head -n 60
fail() { echo "FAIL: $*"; exit 1; }
echo "$out" | grep -q "inspector: node priority" || fail "no inspector lines"
echo "$out" | grep -q "not evaluated" && fail "a node is not evaluated while paused"
echo "$out" | grep -q "= -1.000" && fail "an inherited limit shows -1.000"
echo "$out" | grep -q "max_speed (m/s) = inherited" || fail "no limit shows 'inherited'"
[ "$(echo "$out" | grep -c "inspector: weight (in the blend) = ")" -ge 4 ] || fail "the blend's weights are not widgets"
echo "$out" | grep -q "inspector: 0 labels cut" || fail "labels cut at the panel's edge"
echo "$out" | grep -q "legend: avoidance ray hit" || fail "no debug-layer legend in the help"
echo "ok: paused inspector and help"
