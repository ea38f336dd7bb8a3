#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The MPI path of `impactfit sweep` (built with -DIMPACTFIT_MPI=ON): 2 ranks write the CSV of a serial
# run byte for byte (with many small blocks handed out dynamically, for a shard, and for copt's
# continuation runs, whole or cut by blocks shorter than a run); both ranks
# computed points; a run stopped by SIGTERM (through mpirun) resumes serially, and a serial run
# stopped by SIGINT resumes under mpirun, both to the identical CSV. The signals come at a known point
# whatever the machine's speed (events.sh): the run holds after its first rows
# (IMPACTFIT_TEST_HOLD_AFTER=1; under MPI, rank 0, which writes) and the signal is sent once the
# journal shows their commit.
# usage: test_mpi.sh path/to/impactfit MPIEXEC
set -u
BIN=${1:?usage: test_mpi.sh path/to/impactfit MPIEXEC}
MPIEXEC=${2:-mpirun}
. "$(dirname "$0")/events.sh"
# OpenMPI in a container, as root, with 2 ranks on however many cores
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
TMP=$(mktemp -d)
pids=""
trap 'for p in $pids; do kill -9 $p 2>/dev/null; done; rm -rf "$TMP"' EXIT
fail=0
pass=0
ok() { pass=$((pass + 1)); }
ko() { echo "FAIL: $*"; fail=$((fail + 1)); }
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
mkdir -p "$TMP/ref" "$TMP/m" "$TMP/sref" "$TMP/s" "$TMP/i1" "$TMP/i2"
"$BIN" sweep "$TMP/big.ini" --out "$TMP/ref" --threads 1 --quiet >/dev/null 2>&1
[ -s "$TMP/ref/big.csv" ] && ok || ko "serial reference"

"$MPIEXEC" -np 2 "$BIN" sweep "$TMP/big.ini" --out "$TMP/m" --threads 1 --block 300 >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 1 ] && cmp -s "$TMP/ref/big.csv" "$TMP/m/big.csv" && ok || { ko "2 ranks: exit $rc or CSV differs"; cat "$TMP/err"; }
grep -q '"ranks": 2,' "$TMP/m/big.json" && ok || ko "JSON ranks"
per=$(sed -n 's/.*"points_per_rank": \[\([0-9]*\), \([0-9]*\)\].*/\1 \2/p' "$TMP/m/big.json")
set -- $per
[ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ] && [ $(($1 + $2)) = 20000 ] && ok || ko "points per rank: '$per'"
grep -q "\"failed\": $(grep -c ',ENOSEP,' "$TMP/ref/big.csv")," "$TMP/m/big.json" && ok || ko "JSON failed count"

"$BIN" sweep "$TMP/big.ini" --out "$TMP/sref" --shard 1/3 --quiet >/dev/null 2>&1
"$MPIEXEC" -np 2 "$BIN" sweep "$TMP/big.ini" --out "$TMP/s" --shard 1/3 --threads 1 --block 500 >/dev/null 2>&1
cmp -s "$TMP/sref/big.shard-1-of-3.csv" "$TMP/s/big.shard-1-of-3.csv" && ok || ko "2 ranks, shard 1/3 differs"

# a problem with continuation runs along e (copt): whole runs per task, and runs longer than a block
cat >"$TMP/copt.ini" <<'INI'
[sweep]
problem = copt
outputs = c_opt, e_out
[fixed]
guess = closed
[axes]
n = linear 1, 2, 8
e = linear 0.45, 1, 600
INI
mkdir -p "$TMP/c1" "$TMP/c2"
for blk in 1000 256; do
  rm -f "$TMP/c1/"* "$TMP/c2/"*
  "$BIN" sweep "$TMP/copt.ini" --out "$TMP/c1" --block $blk --threads 2 --quiet >/dev/null 2>&1
  "$MPIEXEC" -np 2 "$BIN" sweep "$TMP/copt.ini" --out "$TMP/c2" --block $blk --threads 1 >/dev/null 2>"$TMP/err"
  [ -s "$TMP/c1/copt.csv" ] && cmp -s "$TMP/c1/copt.csv" "$TMP/c2/copt.csv" && ok ||
    { ko "copt, block $blk: 2 ranks differ from a serial run"; cat "$TMP/err"; }
done

# SIGTERM to mpirun (forwarded to the ranks) once rank 0 has committed rows, then a serial resume
IMPACTFIT_TEST_HOLD_AFTER=1 "$MPIEXEC" -np 2 "$BIN" sweep "$TMP/big.ini" --out "$TMP/i1" --threads 1 --block 200 \
  >/dev/null 2>"$TMP/err" &
pid=$!
pids="$pids $pid"
if wait_event $pid "2 ranks: a commit in the journal" committed_at_least "$TMP/i1/big.journal" 1; then
  kill -TERM $pid
  wait $pid
  [ -e "$TMP/i1/big.journal" ] && [ ! -e "$TMP/i1/big.csv" ] && grep -q 'interrupted by SIGTERM' "$TMP/err" && ok ||
    { ko "2 ranks stopped by SIGTERM: message or files"; cat "$TMP/err"; }
else
  stop_run $pid
  ko "2 ranks: no commit to stop at"
fi
"$BIN" sweep "$TMP/big.ini" --out "$TMP/i1" --resume --quiet >/dev/null 2>&1
cmp -s "$TMP/ref/big.csv" "$TMP/i1/big.csv" && ok || ko "MPI run stopped, resumed serially: CSV differs"

# a serial run stopped by SIGINT once it has committed rows, resumed with 2 ranks
IMPACTFIT_TEST_HOLD_AFTER=1 "$BIN" sweep "$TMP/big.ini" --out "$TMP/i2" --threads 1 --block 200 >/dev/null 2>&1 &
pid=$!
pids="$pids $pid"
if wait_event $pid "serial run: a commit in the journal" committed_at_least "$TMP/i2/big.journal" 1; then
  kill -INT $pid
  wait $pid
  rc=$?
else
  stop_run $pid
  rc=none
fi
[ $rc = 130 ] && [ ! -e "$TMP/i2/big.csv" ] && ok || ko "serial SIGINT exit $rc"
"$MPIEXEC" -np 2 "$BIN" sweep "$TMP/big.ini" --out "$TMP/i2" --threads 1 --resume >/dev/null 2>&1
cmp -s "$TMP/ref/big.csv" "$TMP/i2/big.csv" && ok || ko "serial run stopped, resumed with 2 ranks: CSV differs"

echo "test_mpi.sh: $pass checks passed, $fail failures"
[ "$fail" = 0 ]
