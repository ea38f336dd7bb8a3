#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `impactfit reproduce` stopped by SIGINT or SIGTERM: exit 130 or 143, one line saying so, and neither
# its temporary folder (the staged report) nor a REPORT.md left behind. The signal comes at a known
# point whatever the machine's speed (events.sh): the run holds after its topic
# (IMPACTFIT_TEST_HOLD_AFTER=1), with the topic's data and figure staged, and the test sends the signal
# once stderr says the topic is done.
# usage: test_reproduce_signals.sh path/to/impactfit SOURCE_DIR
set -u
BIN=${1:?usage: test_reproduce_signals.sh path/to/impactfit SOURCE_DIR}
SRC=${2:?}
. "$(dirname "$0")/events.sh"
TMP=$(mktemp -d)
pids=""
trap 'for p in $pids; do kill -9 $p 2>/dev/null; done; rm -rf "$TMP"' EXIT
fail=0
# a signal after the topic's work, while the report is still in its temporary folder (the run holds
# there, IMPACTFIT_TEST_HOLD_AFTER=1, and the signal goes once stderr says the topic is done)
for sig in INT TERM; do
  rm -f "$TMP/sigerr" # the last run's stderr first: the child truncates it, maybe after wait_event read it (test_grid.sh)
  IMPACTFIT_TEST_HOLD_AFTER=1 "$BIN" reproduce --quick --topic hc-formulas --src "$SRC" --out "$TMP/sig$sig" \
    >/dev/null 2>"$TMP/sigerr" &
  pid=$!
  pids="$pids $pid"
  if wait_event $pid "SIG$sig: the end of topic hc-formulas on stderr" grep_quiet '^impactfit reproduce: hc-formulas done in' "$TMP/sigerr"; then
    ls -a "$TMP/sig$sig" | grep -q '^\.impactfit-tmp' || { echo "FAIL: SIG$sig: no temporary folder before the signal"; fail=$((fail + 1)); }
    kill -$sig $pid
    wait $pid
    st=$?
  else
    stop_run $pid
    st=none
  fi
  want=$([ $sig = INT ] && echo 130 || echo 143)
  [ $st = "$want" ] || { echo "FAIL: SIG$sig: exit $st, expected $want"; cat "$TMP/sigerr"; fail=$((fail + 1)); }
  ls -a "$TMP/sig$sig" | grep -q '^\.impactfit-tmp' && { echo "FAIL: temporary folder left after SIG$sig"; fail=$((fail + 1)); }
  [ ! -e "$TMP/sig$sig/REPORT.md" ] || { echo "FAIL: SIG$sig left a REPORT.md"; fail=$((fail + 1)); }
  grep -q "stopped by SIG$sig" "$TMP/sigerr" || { echo "FAIL: SIG$sig not reported"; fail=$((fail + 1)); }
done
echo "test_reproduce_signals.sh: $fail failures"
[ "$fail" = 0 ]
