#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The grid modes of the point commands (copt, zhang-alpha, impact-time, hc-eps, simulate, identify-hc)
# run on the library's sweep runner (src/cli/grid.c):
#  - the rows are byte-identical for 1 and 2 threads (table, --csv, --json);
#  - SIGINT stops with exit 130, the rows printed are complete, and the printed `--from P` command,
#    appended (run with 1 thread instead of 2), gives the bytes of an uninterrupted run;
#  - --out DIR writes the sweep's CSV durably: SIGINT, then the printed --resume command, gives the
#    CSV of an uninterrupted run;
#  - memory does not grow with the grid: the peak RSS of a 1e8-point grid stopped after its first
#    20000 rows stays within 1.5x of a 1e6-point grid's stopped at the same row (the old copt held
#    every point: 592 MB at 1e6);
#  - units: without --k --mass --v, copt says on stderr that its values are scaled; with them, not.
# The interruptions do not depend on the machine's speed (events.sh): each run holds after its first
# block of rows (IMPACTFIT_TEST_HOLD_AFTER), and SIGINT is sent once those rows are in its output.
set -u
BIN=${1:?usage: test_grid.sh path/to/impactfit}
. "$(dirname "$0")/events.sh"
TMP=$(mktemp -d)
pids=""
trap 'for p in $pids; do kill -9 $p 2>/dev/null; done; rm -rf "$TMP"' EXIT
fail=0
ok() { :; }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }

# grids of at least three blocks of the sweep runner (a block: 4096 points, or whole runs of e for copt
# and zhang-alpha, four runs per thread: 8 runs with --threads 2). A run held after its first block
# holds in the second (the master's poll after its first unit of it), while the other thread finishes
# that block: the signal then cuts the third. With two blocks, a signal that came after the other
# thread had finished found nothing left to cut, and the run ended with exit 0 and every row
# (zhang-alpha, 12 runs, on a loaded machine: "SIGINT gave exit 0 without the --from command").
# The grids have three blocks in either mode and no more than that needs: copt 20 runs of 700 e and
# zhang-alpha 24 runs of 600 e (3 blocks of 8 runs; with --out, 14000 and 14400 points: 3 blocks of 4096);
# impact-time 10000 and simulate 8000 points. (copt at 300 e, 6000 points, was two blocks with --out: its
# SIGINT came after the last row, exit 0.) The run's length does not matter: each run holds at an event.
COPT="copt --n 1:2:20 --e 0.05:1:700 --k 1e7 --mass 0.1 --v 2"
ZHANG="zhang-alpha --n 1:2:8 --m 0,0.5,1 --e 0.05:0.95:600"
ITIME="impact-time --eps 0:50:500 --n 1:2.5:20 --k 1e7 --mass 0.1 --v 2"
SIMU="simulate --n 1:2:20 --c 0:2:400 --transition A,C --k 1e7 --mass 0.1 --v 2"

# ---- 1 vs 2 threads, every format, small grids (hc-eps too; its points take microseconds) ----
for cmd in "copt --n 1:2:150 --e 0.05:1:40 --k 1e7 --mass 0.1 --v 2" "zhang-alpha --n 1:2:40 --m 0,0.5,1 --e 0.05:0.95:40" \
  "impact-time --eps 0:50:20 --n 1:2.5:100 --k 1e7 --mass 0.1 --v 2" \
  "simulate --n 1:2:100 --c 0:2:20 --transition A,C --k 1e7 --mass 0.1 --v 2" "hc-eps --e 0.01:1:300 --k 1e7,2e7 --v 1:3:7" \
  "hc-eps --e 0.01:1:300 --formula flores" "identify-hc --e 0.2:0.9:15 --dt 1e-4,3e-4 --v 1,2 --mass 0.1 --n 1:2:5"; do
  for fmt in "" "--csv" "--json"; do
    [ "$fmt" = --csv ] && [ "${cmd%% *}" != copt ] && [ "${cmd%% *}" != zhang-alpha ] && [ "${cmd%% *}" != simulate ] &&
      continue
    # shellcheck disable=SC2086
    "$BIN" $cmd $fmt --threads 1 >"$TMP/t1" 2>/dev/null
    # shellcheck disable=SC2086
    "$BIN" $cmd $fmt --threads 2 >"$TMP/t2" 2>/dev/null
    [ -s "$TMP/t1" ] && cmp -s "$TMP/t1" "$TMP/t2" || ko "$cmd $fmt: 1 and 2 threads differ"
  done
done
# --from P prints exactly the rows after the header from point P on
"$BIN" hc-eps --e 0.01:1:300 --k 1e7,2e7 --v 1:3:7 --json --from 1234 >"$TMP/t1"
"$BIN" hc-eps --e 0.01:1:300 --k 1e7,2e7 --v 1:3:7 --json | tail -n +1235 >"$TMP/t2"
[ -s "$TMP/t1" ] && cmp -s "$TMP/t1" "$TMP/t2" || ko "hc-eps --from 1234 is not the tail of the full run"

for cmd in "$COPT" "$ZHANG" "$ITIME" "$SIMU"; do
  name=${cmd%% *}
  fmt=--csv
  [ "$name" = impact-time ] && fmt=""
  # ---- the full run ----
  # shellcheck disable=SC2086
  "$BIN" $cmd $fmt --threads 2 >"$TMP/full.csv" 2>"$TMP/err" || { ko "$name full run"; cat "$TMP/err"; }
  # ---- SIGINT once the first block is printed, then --from ----
  # the previous command's files go first: bash truncates them in the child, which a loaded machine may run
  # after wait_event has already found the old rows (and a SIGINT before the run's handler is ignored: a
  # background job of a non-interactive shell starts with SIGINT ignored)
  rm -f "$TMP/part.csv" "$TMP/err"
  # shellcheck disable=SC2086
  IMPACTFIT_TEST_HOLD_AFTER=1 "$BIN" $cmd $fmt --threads 2 >"$TMP/part.csv" 2>"$TMP/err" &
  pid=$!
  pids="$pids $pid"
  # the header and at least one row: the rows come from the run, after its signal handler is set
  if wait_event $pid "$name: rows on stdout" lines_at_least "$TMP/part.csv" 2; then
    kill -INT $pid
    wait $pid
    rc=$?
  else
    stop_run $pid
    rc=none
  fi
  again=$(sed -n 's/.*print the rest with: impactfit //p' "$TMP/err")
  if [ "$rc" = 130 ] && [ -n "$again" ]; then
    # shellcheck disable=SC2086
    "$BIN" ${again/--threads 2/--threads 1} >>"$TMP/part.csv" 2>/dev/null
    cmp -s "$TMP/part.csv" "$TMP/full.csv" || ko "$name: interrupted output + '$again' differs from the full run"
    [ "$(sed -n 's/.* after \([0-9]*\) of .*/\1/p' "$TMP/err")" -lt "$(sed -n 's/.* of \([0-9]*\) points.*/\1/p' "$TMP/err")" ] ||
      ko "$name: the interrupted run had printed every row: $(cat "$TMP/err")"
  else
    ko "$name: SIGINT gave exit $rc without the --from command"; cat "$TMP/err"
  fi
  # ---- --out DIR: SIGINT once the first block is committed, then --resume ----
  # shellcheck disable=SC2086
  "$BIN" $cmd --out "$TMP/o1" --threads 2 --quiet >/dev/null 2>/dev/null
  # shellcheck disable=SC2086
  IMPACTFIT_TEST_HOLD_AFTER=1 "$BIN" $cmd --out "$TMP/o2" --threads 2 >/dev/null 2>"$TMP/err" &
  pid=$!
  pids="$pids $pid"
  if wait_event $pid "$name --out: a commit in the journal" committed_at_least "$TMP/o2/$name.journal" 1; then
    kill -INT $pid
    wait $pid
    rc=$?
  else
    stop_run $pid
    rc=none
  fi
  again=$(sed -n 's/.*resume with: impactfit //p' "$TMP/err")
  if [ "$rc" = 130 ] && [ -f "$TMP/o2/$name.journal" ] && [ -n "$again" ]; then
    # shellcheck disable=SC2086
    "$BIN" ${again/--threads 2/--threads 1} >/dev/null 2>"$TMP/err" || { ko "$name: $again"; cat "$TMP/err"; }
    cmp -s "$TMP/o1/$name.csv" "$TMP/o2/$name.csv" && [ ! -e "$TMP/o2/$name.journal" ] ||
      ko "$name --out: interrupted + --resume differs from the uninterrupted CSV"
  else
    ko "$name --out: SIGINT gave exit $rc without a journal and the --resume command"; cat "$TMP/err"
  fi
  rm -rf "$TMP/o1" "$TMP/o2"
done

# ---- bounded memory: peak RSS (VmHWM) at the first 20000 rows of 1e6 and 1e8 points ----
rss() {
  rm -f "$TMP/rows"
  # shellcheck disable=SC2086
  IMPACTFIT_TEST_HOLD_AFTER=20000 "$BIN" copt $1 --csv --threads 2 >"$TMP/rows" 2>"$TMP/merr" &
  local pid=$! peak=""
  pids="$pids $pid"
  if wait_event $pid "copt $1: 20000 rows" lines_at_least "$TMP/rows" 20001; then
    peak=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' /proc/$pid/status)
    kill -INT $pid
    wait $pid
  else
    stop_run $pid
  fi
  # it must have been computing when stopped (not refused the grid)
  grep -q 'interrupted by SIGINT after [1-9][0-9]* of' "$TMP/merr" && echo "$peak"
}
small=$(rss "--n 1:2:100 --e 0.05:1:10000")
big=$(rss "--n 1:2:10000 --e 0.05:1:10000")
[ -n "$small" ] && [ -n "$big" ] && [ "$big" -lt $((small * 3 / 2)) ] && [ "$big" -lt 200000 ] ||
  ko "copt memory grows with the grid: peak RSS $small kB at 1e6 points, $big kB at 1e8"

# ---- units ----
"$BIN" copt --n 1.5 --e 0.7 >/dev/null 2>"$TMP/err"
grep -q '^impactfit: note: copt: --k, --mass and --v not given: .*scaled values' "$TMP/err" ||
  ko "copt without --k --mass --v does not say its values are scaled"
"$BIN" copt --n 1.5 --e 0.7 --k 1e7 --mass 0.1 --v 2 >/dev/null 2>"$TMP/err"
[ ! -s "$TMP/err" ] || ko "copt with --k --mass --v prints on stderr: $(cat "$TMP/err")"
# a part of the three is refused (exit 2), naming what was given
rc=0
"$BIN" copt --n 1.5 --e 0.7 --k 1e7 >/dev/null 2>"$TMP/err" || rc=$?
[ "$rc" = 2 ] && grep -q '^impactfit: error: copt: give all of --k, --mass and --v, or none (only --k given)' "$TMP/err" ||
  ko "copt --k alone: not refused with exit 2 naming --k (exit $rc: $(cat "$TMP/err"))"
rc=0
"$BIN" simulate --n 1.5 --c 0.5 --k 1e7 >/dev/null 2>"$TMP/err" || rc=$?
[ "$rc" = 2 ] && grep -q 'give all of --k, --mass and --v, or none' "$TMP/err" ||
  ko "simulate --k alone: not refused with exit 2 (exit $rc: $(cat "$TMP/err"))"
for c in copt zhang-alpha impact-time hc-eps simulate identify-hc; do
  "$BIN" "$c" --help | grep -q '^Columns' || ko "$c --help documents no columns and units"
done

echo "test_grid.sh: $fail failures"
[ "$fail" = 0 ]
