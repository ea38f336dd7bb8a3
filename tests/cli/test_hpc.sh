#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CLI checks for sweeps at HPC scale (issue 7):
#  - kill and resume: a sweep is SIGKILLed five times at random points of the grid (and its part file
#    and journal are given a torn row and a torn record), then finished with --resume: the CSV must be
#    byte-identical to an uninterrupted run; SIGINT/SIGTERM exit 130/143 with one line naming the
#    resume command; a changed definition, another block size or a second writer are refused;
#    --resume on a finished output does nothing;
#  - shards: 3 and 7 shards (one directory, and one directory per shard) merged = the unsharded CSV,
#    failures included; merge refuses a missing, duplicated, unfinished, foreign or torn shard and
#    writes nothing then;
#  - progress: a line with points/s on a terminal (through script(1)), none with --quiet or when
#    stderr is a file.
#  Every kill and signal lands inside the run whatever the machine's speed (events.sh): a run holds at
#  a chosen point (IMPACTFIT_TEST_HOLD_AFTER) and the signal is sent once its journal shows a commit.
#  - a kill at each step of the finish (LD_PRELOAD shim: before the JSON's rename, before the part
#    file's rename, before the journal's removal) is completed by --resume without recomputing; a
#    full disk (the shim's ENOSPC) exits 1 with one line and --resume finishes;
# usage: test_hpc.sh path/to/impactfit [path/to/crash_shim.so [SEED]]
set -u
BIN=${1:?usage: test_hpc.sh path/to/impactfit [path/to/crash_shim.so [SEED]]}
SHIM=${2:-}
SEED=${3:-$$}
RANDOM=$SEED
. "$(dirname "$0")/events.sh"
TMP=$(mktemp -d)
pids=""
trap 'for p in $pids; do kill -9 $p 2>/dev/null; done; rm -rf "$TMP"' EXIT
fail=0
pass=0
ok() { pass=$((pass + 1)); }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }
one_line() { [ "$(grep -c '' "$1")" = 1 ] && grep -q '^impactfit: error: ' "$1"; }
echo "test_hpc.sh: seed $SEED"
# Under ASan the shim is preloaded ahead of the sanitizer's runtime, which ASan refuses by default;
# the shim only wraps rename/unlink/write and forwards to the next definition, so the order is harmless.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"

# 20,000 points, with failures (condition A never separates for large c), under a second on 2 cores
cat >"$TMP/big.ini" <<'INI'
[sweep]
problem = simulate
outputs = e_out, t_contact
[fixed]
m = 0.5
transition = A
[axes]
n = linear 1, 2, 20
c = log 0.01, 8, 1000
INI
mkdir -p "$TMP/ref" "$TMP/kill" "$TMP/sig"
"$BIN" sweep "$TMP/big.ini" --out "$TMP/ref" --threads 2 >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 1 ] && one_line "$TMP/err" && grep -q 'points failed' "$TMP/err" || { ko "reference run exit $rc"; cat "$TMP/err"; }
grep -q $'\r' "$TMP/err" && ko "progress line drawn although stderr is a file" || ok
nref=$(grep -c '' "$TMP/ref/big.csv")
[ "$nref" = 20001 ] && ok || ko "reference CSV has $nref lines"
nfail=$(grep -c ',ENOSEP,' "$TMP/ref/big.csv")
[ "$nfail" -gt 0 ] && ok || ko "no failed point in the reference"

# ---- SIGKILL at five random points of the grid, plus torn writes ----
# Each run (--sync 0: a commit after every block of 256 points) holds at a point a few blocks past a
# random target and is SIGKILLed as soon as its journal commits the target: the kill lands while the
# run computes and writes the blocks in between, or at the hold, but always inside the run.
kills=0
tries=0
torn=0
last_durable=0
for k in 1 2 3 4 5; do
  tries=$((tries + 1))
  target=$((k * 3000 + RANDOM % 1500))
  hold=$((target + (RANDOM % 4) * 256))
  # alternately 1 and 2 threads (a resumed run may use another thread count)
  IMPACTFIT_TEST_HOLD_AFTER=$hold "$BIN" sweep "$TMP/big.ini" --out "$TMP/kill" --threads $((1 + tries % 2)) \
    --block 256 --sync 0 --resume >/dev/null 2>"$TMP/err" &
  pid=$!
  pids="$pids $pid"
  if ! wait_event $pid "commit of point $target in the journal" committed_at_least "$TMP/kill/big.journal" $target; then
    stop_run $pid
    cat "$TMP/err"
    continue
  fi
  stop_run $pid
  durable=$(last_commit "$TMP/kill/big.journal")
  if [ -e "$TMP/kill/big.journal" ] && [ ! -e "$TMP/kill/big.csv" ] && [ "$durable" -gt "$last_durable" ]; then
    kills=$((kills + 1)) # a kill in the middle, after some rows were made durable
    last_durable=$durable
    # a torn row after the durable ones and a torn journal record: resume must drop both
    if [ $torn = 0 ] && [ -e "$TMP/kill/big.csv.part" ]; then
      printf '19999,1.5,0.5,1,0.3' >>"$TMP/kill/big.csv.part"
      printf 'commit 20000 99999999 20000 0 0 1.0 #0123456789abcdef' >>"$TMP/kill/big.journal"
      torn=1
    fi
  fi
done
[ $kills = 5 ] && ok || ko "only $kills of 5 kills landed inside the run after progress"
[ $torn = 1 ] && ok || ko "no torn row was injected"
if [ ! -e "$TMP/kill/big.csv" ]; then
  "$BIN" sweep "$TMP/big.ini" --out "$TMP/kill" --threads 1 --resume >/dev/null 2>&1
fi
cmp -s "$TMP/ref/big.csv" "$TMP/kill/big.csv" && ok || ko "CSV after $kills kills and resumes differs from the uninterrupted run"
ls "$TMP/kill" | grep -Eq 'journal|\.part|\.tmp' && ko "files left behind after the resumed run: $(ls "$TMP/kill")" || ok
grep -q "\"failed\": $nfail," "$TMP/kill/big.json" && ok || ko "JSON of the resumed run: failed count"
[ "$(grep -c '"status": "ENOSEP"' "$TMP/kill/big.json")" = "$(grep -c '"status": "ENOSEP"' "$TMP/ref/big.json")" ] &&
  ok || ko "JSON of the resumed run lists other failures"
sessions=$(sed -n 's/.*"sessions": \([0-9]*\).*/\1/p' "$TMP/kill/big.json")
[ "${sessions:-0}" -ge 2 ] && ok || ko "JSON sessions = $sessions"
echo "test_hpc.sh: $kills SIGKILLs in $tries runs, then identical"

# ---- a kill inside the finish: --resume completes it without computing again ----
if [ -n "$SHIM" ] && [ -e "$SHIM" ]; then
  for step in "CRASH_RENAME_TO=.json" "CRASH_RENAME_TO=big.csv" "CRASH_UNLINK=.journal"; do
    rm -rf "$TMP/fin" && mkdir "$TMP/fin"
    env LD_PRELOAD="$SHIM" "$step" "$BIN" sweep "$TMP/big.ini" --out "$TMP/fin" --threads 2 >/dev/null 2>&1 &
    wait $! 2>/dev/null
    rc=$?
    [ $rc = 137 ] && [ -e "$TMP/fin/big.journal" ] && ok || ko "$step: exit $rc, files: $(ls "$TMP/fin")"
    "$BIN" sweep "$TMP/big.ini" --out "$TMP/fin" --threads 2 --resume >"$TMP/out" 2>"$TMP/err"
    rc=$?
    [ $rc = 1 ] && cmp -s "$TMP/ref/big.csv" "$TMP/fin/big.csv" && [ -e "$TMP/fin/big.json" ] && ok ||
      { ko "$step, then --resume: exit $rc or CSV differs"; cat "$TMP/err"; }
    grep -q 'no point left to compute\|nothing to do' "$TMP/out" && ok || { ko "$step: --resume computed again"; cat "$TMP/out"; }
    ls "$TMP/fin" | grep -Eq 'journal|\.part|\.tmp' && ko "$step: files left: $(ls "$TMP/fin")" || ok
  done
fi

# ---- a full disk: exit 1 with one line, and the rows made durable before stay; --resume finishes ----
if [ -n "$SHIM" ] && [ -e "$SHIM" ]; then
  rm -rf "$TMP/full" && mkdir "$TMP/full"
  LD_PRELOAD="$SHIM" FULL_AFTER=1000000 "$BIN" sweep "$TMP/big.ini" --out "$TMP/full" --block 512 --sync 0 \
    >/dev/null 2>"$TMP/err"
  rc=$?
  [ $rc = 1 ] && one_line "$TMP/err" && grep -q 'cannot write .*big.csv.part: No space left on device' "$TMP/err" &&
    [ ! -e "$TMP/full/big.csv" ] && ok || { ko "full disk: exit $rc"; cat "$TMP/err"; }
  "$BIN" sweep "$TMP/big.ini" --out "$TMP/full" --resume >/dev/null 2>&1
  cmp -s "$TMP/ref/big.csv" "$TMP/full/big.csv" && ok || ko "full disk, then --resume: CSV differs"
fi

# ---- SIGINT and SIGTERM: clean stop, 130/143, one line with the resume command ----
for sig in INT TERM; do
  rm -f "$TMP/sig/"*
  IMPACTFIT_TEST_HOLD_AFTER=1 "$BIN" sweep "$TMP/big.ini" --out "$TMP/sig" --threads 1 --block 512 >/dev/null \
    2>"$TMP/err" &
  pid=$!
  pids="$pids $pid"
  if wait_event $pid "SIG$sig: a commit in the journal" committed_at_least "$TMP/sig/big.journal" 1; then
    kill -$sig $pid
    wait $pid
    rc=$?
  else
    stop_run $pid
    rc=none
  fi
  want=$([ $sig = INT ] && echo 130 || echo 143)
  [ $rc = "$want" ] && one_line "$TMP/err" && grep -q "interrupted by SIG$sig after [0-9]* of 20000 points" "$TMP/err" &&
    grep -q -- "--resume" "$TMP/err" && ok || { ko "SIG$sig: exit $rc (want $want)"; cat "$TMP/err"; }
  # the rows saved are exactly the committed ones: the part file is the reference's prefix
  n=$(sed -n 's/.*after \([0-9]*\) of.*/\1/p' "$TMP/err")
  [ "${n:-0}" -gt 0 ] && [ "${n:-0}" -lt 20000 ] && head -n $((n + 1)) "$TMP/ref/big.csv" | cmp -s - "$TMP/sig/big.csv.part" &&
    ok || ko "SIG$sig: the part file is not the first $n rows"
  "$BIN" sweep "$TMP/big.ini" --out "$TMP/sig" --block 512 --resume >/dev/null 2>&1
  cmp -s "$TMP/ref/big.csv" "$TMP/sig/big.csv" && ok || ko "SIG$sig then --resume: CSV differs"
done

# ---- refusals: existing journal without --resume, changed definition, other block, second writer ----
rm -rf "$TMP/sig" && mkdir "$TMP/sig"
IMPACTFIT_TEST_HOLD_AFTER=1 "$BIN" sweep "$TMP/big.ini" --out "$TMP/sig" --threads 1 --block 512 --sync 0 \
  >/dev/null 2>&1 &
pid=$!
pids="$pids $pid"
if wait_event $pid "the first writer's commit" committed_at_least "$TMP/sig/big.journal" 1; then
  "$BIN" sweep "$TMP/big.ini" --out "$TMP/sig" --threads 1 --resume >/dev/null 2>"$TMP/err"
  rc=$?
  [ $rc = 2 ] && one_line "$TMP/err" && grep -q 'being written by another impactfit process' "$TMP/err" && ok ||
    { ko "second writer: exit $rc"; cat "$TMP/err"; }
  # without --resume, the live writer's files are not to be deleted (the advice for a dead run's journal)
  "$BIN" sweep "$TMP/big.ini" --out "$TMP/sig" --threads 1 >/dev/null 2>"$TMP/err"
  rc=$?
  [ $rc = 2 ] && one_line "$TMP/err" && grep -q 'still running' "$TMP/err" && ! grep -q 'to start over' "$TMP/err" &&
    ok || { ko "second writer without --resume: exit $rc"; cat "$TMP/err"; }
else
  ko "second writer: the first writer did not start"
fi
stop_run $pid
if [ -e "$TMP/sig/big.journal" ]; then
  "$BIN" sweep "$TMP/big.ini" --out "$TMP/sig" >/dev/null 2>"$TMP/err"
  rc=$?
  [ $rc = 2 ] && one_line "$TMP/err" && grep -q 'interrupted run.*--resume' "$TMP/err" && ok ||
    { ko "journal without --resume: exit $rc"; cat "$TMP/err"; }
  "$BIN" sweep "$TMP/big.ini" --out "$TMP/sig" --block 1024 --resume >/dev/null 2>"$TMP/err"
  rc=$?
  [ $rc = 2 ] && one_line "$TMP/err" && grep -q 'used blocks of 512 points' "$TMP/err" && ok ||
    { ko "other block: exit $rc"; cat "$TMP/err"; }
  sed 's/linear 1, 2, 20/linear 1, 2.5, 20/' "$TMP/big.ini" >"$TMP/changed.ini"
  cp "$TMP/changed.ini" "$TMP/big2.ini"
  cp "$TMP/big.ini" "$TMP/big.ini.orig"
  cp "$TMP/changed.ini" "$TMP/big.ini"
  "$BIN" sweep "$TMP/big.ini" --out "$TMP/sig" --resume >/dev/null 2>"$TMP/err"
  rc=$?
  cp "$TMP/big.ini.orig" "$TMP/big.ini"
  [ $rc = 2 ] && one_line "$TMP/err" && grep -q 'has changed since the interrupted run' "$TMP/err" && ok ||
    { ko "changed definition: exit $rc"; cat "$TMP/err"; }
  [ -e "$TMP/sig/big.csv" ] && ko "a refused resume wrote the CSV" || ok
else
  ko "the run to be refused left no journal"
fi
# --resume on a finished output: nothing to do, the exit status of the run (1: failed points)
cp "$TMP/ref/big.csv" "$TMP/ref.bak"
"$BIN" sweep "$TMP/big.ini" --out "$TMP/ref" --resume >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 1 ] && grep -q 'nothing to do' "$TMP/out" && cmp -s "$TMP/ref.bak" "$TMP/ref/big.csv" && ok ||
  { ko "--resume on a finished output: exit $rc"; cat "$TMP/out" "$TMP/err"; }

# ---- shards and merge ----
cat >"$TMP/sh.ini" <<'INI'
[sweep]
problem = simulate
outputs = e_out
[fixed]
transition = A
[axes]
n = list 1, 1.5
c = linear 0.5, 3, 6
v = log 0.5, 2, 3
INI
mkdir -p "$TMP/u" "$TMP/s3" "$TMP/m3" "$TMP/m7"
"$BIN" sweep "$TMP/sh.ini" --out "$TMP/u" >/dev/null 2>&1
for i in 0 1 2; do
  "$BIN" sweep "$TMP/sh.ini" --out "$TMP/s3" --shard $i/3 --threads 2 >/dev/null 2>&1
  rc=$?
  [ $rc = 1 ] || [ $rc = 0 ] || ko "shard $i/3 exit status $rc"
done
"$BIN" merge "$TMP/s3" --out "$TMP/m3" >"$TMP/out" 2>"$TMP/err" && ok || { ko "merge of 3 shards"; cat "$TMP/err"; }
cmp -s "$TMP/u/sh.csv" "$TMP/m3/sh.csv" && ok || ko "3 shards merged differ from the unsharded CSV"
for k in failed rows; do
  a=$(grep "\"$k\":" "$TMP/u/sh.json" | tr -dc 0-9)
  b=$(grep "\"$k\":" "$TMP/m3/sh.json" | tr -dc 0-9)
  [ "$a" = "$b" ] && ok || ko "merged JSON $k $b, unsharded $a"
done
grep -q '"definition_xxh64": "' "$TMP/m3/sh.json" && grep -q '"merged_shards": 3' "$TMP/m3/sh.json" && ok ||
  ko "merged JSON provenance"
[ "$(grep -c '"status": "ENOSEP"' "$TMP/m3/sh.json")" = "$(grep -c '"status": "ENOSEP"' "$TMP/u/sh.json")" ] && ok ||
  ko "merged JSON failures"
dirs=""
for i in 0 1 2 3 4 5 6; do
  mkdir -p "$TMP/d$i"
  "$BIN" sweep "$TMP/sh.ini" --out "$TMP/d$i" --shard $i/7 >/dev/null 2>&1
  dirs="$dirs $TMP/d$i"
done
# shellcheck disable=SC2086
"$BIN" merge $dirs --out "$TMP/m7" >/dev/null 2>&1 && cmp -s "$TMP/u/sh.csv" "$TMP/m7/sh.csv" && ok ||
  ko "7 shards in 7 directories merged differ"
# the fit reads a merged result like an unsharded one; --resume sees it as finished
"$BIN" sweep "$TMP/sh.ini" --out "$TMP/m3" --resume >"$TMP/out" 2>/dev/null
grep -q 'nothing to do' "$TMP/out" && ok || ko "--resume does not recognise the merged result"

refuse() { # refuse 'WHAT' 'REGEX' DIR...
  local what=$1 want=$2
  shift 2
  rm -rf "$TMP/mo" && mkdir "$TMP/mo"
  "$BIN" merge "$@" --out "$TMP/mo" >"$TMP/out" 2>"$TMP/err"
  local rc=$?
  if [ $rc = 2 ] && one_line "$TMP/err" && grep -Eq "^impactfit: error: merge: $want" "$TMP/err" &&
    [ -z "$(ls "$TMP/mo")" ]; then ok; else
    ko "merge with $what: exit $rc"; cat "$TMP/err"
  fi
}
mkdir "$TMP/miss" && cp "$TMP/s3/"*shard-0* "$TMP/s3/"*shard-2* "$TMP/miss/"
refuse "a missing shard" "incomplete shard set: 1 of 3 shards of sh missing \(1\)" "$TMP/miss"
refuse "a duplicated shard" "shard 1 of 3 found twice" "$TMP/s3" "$TMP/s3/../s3"
mkdir "$TMP/unf" && cp "$TMP/s3/"* "$TMP/unf/" && touch "$TMP/unf/sh.shard-2-of-3.journal"
refuse "an unfinished shard" "shard 2 of 3 .* is not finished" "$TMP/unf"
mkdir "$TMP/mix" && cp "$TMP/s3/"*shard-0* "$TMP/s3/"*shard-1* "$TMP/mix/"
mkdir "$TMP/mixdef" && sed 's/log 0.5, 2, 3/log 0.5, 2, 4/' "$TMP/sh.ini" >"$TMP/mixdef/sh.ini"
"$BIN" sweep "$TMP/mixdef/sh.ini" --out "$TMP/mix" --shard 2/3 >/dev/null 2>&1
refuse "a shard of another definition" "shards of different runs: .* definition_xxh64" "$TMP/mix"
mkdir "$TMP/torn" && cp "$TMP/s3/"* "$TMP/torn/"
f="$TMP/torn/sh.shard-1-of-3.csv"
head -c $(($(stat -c %s "$f") - 7)) "$f" >"$f.x" && mv "$f.x" "$f"
refuse "a torn row" "(.*row [0-9]* is torn|row [0-9]* is missing)" "$TMP/torn"
refuse "no shards" "no shards" "$TMP/u"
for args in "" "--bogus"; do
  # shellcheck disable=SC2086
  "$BIN" merge $args >/dev/null 2>"$TMP/err"
  [ $? = 2 ] && one_line "$TMP/err" && ok || ko "merge $args"
done

# ---- options ----
for args in "--shard 3/3" "--shard 1" "--shard -1/2" "--shard a/b" "--sync -1" "--threads 0"; do
  # shellcheck disable=SC2086
  "$BIN" sweep "$TMP/sh.ini" --out "$TMP/u" $args >/dev/null 2>"$TMP/err"
  [ $? = 2 ] && one_line "$TMP/err" && ok || { ko "sweep $args"; cat "$TMP/err"; }
done

# ---- progress line on a terminal (script(1) gives the command a pseudo-terminal) ----
# IMPACTFIT_TEST_PROGRESS_INTERVAL=0: every update draws (not only those 0.2 s apart), so that a line
# is there however fast the machine runs the sweep
if command -v script >/dev/null; then
  export IMPACTFIT_TEST_PROGRESS_INTERVAL=0
  mkdir -p "$TMP/p1" "$TMP/p2"
  script -qec "$BIN sweep $TMP/big.ini --out $TMP/p1 --threads 1" /dev/null >"$TMP/tty" 2>&1
  grep -a -q $'\r''sweep big: [0-9]*/20000 points (.*%), .* points/s' "$TMP/tty" && ok ||
    { ko "no progress line on a terminal"; head -c 600 "$TMP/tty"; }
  script -qec "$BIN sweep $TMP/big.ini --out $TMP/p2 --threads 1 --quiet" /dev/null >"$TMP/tty" 2>&1
  grep -a -q 'points/s,' "$TMP/tty" && ko "progress line despite --quiet" || ok
  # copt on a grid (the sweep runner): the same line, the table on stdout unchanged
  script -qec "$BIN copt --n 1:2:20 --e 0.05:1:1200 --csv >$TMP/copt_tty.csv" /dev/null >"$TMP/tty" 2>&1
  grep -a -q $'\r''copt: [0-9]*/24000 points (.*%), .* points/s' "$TMP/tty" && ok ||
    { ko "no copt progress line on a terminal"; head -c 600 "$TMP/tty"; }
  "$BIN" copt --n 1:2:20 --e 0.05:1:1200 --csv >"$TMP/copt_file.csv" 2>"$TMP/err"
  # stderr: only the note that the values are scaled (no --k, --mass, --v)
  cmp -s "$TMP/copt_tty.csv" "$TMP/copt_file.csv" && [ "$(grep -cv '^impactfit: note: copt: .*scaled values' "$TMP/err")" = 0 ] &&
    ok || ko "copt output differs on a terminal"
  unset IMPACTFIT_TEST_PROGRESS_INTERVAL
fi

echo "test_hpc.sh: $pass checks passed, $fail failures"
[ "$fail" = 0 ]
