#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Sweeps at HPC scale (issue 7): points per second of a c_opt sweep (bench/hpc_copt.ini: 120,000
# points, 200 continuation runs of 600) measured in one go:
#   lib-1t, lib-2t   the library runner, rows formatted and discarded, 1 and 2 OpenMP threads
#   plain-2t         the library runner writing rows to a file with plain buffered writes, no journal,
#                    no fsync (the sweep command before its output became durable)
#   cli-2t           `impactfit sweep --threads 2`: durable output (part file + journal, fsync every 2 s)
#   cli-2t-sync0     the same with --sync 0: fsync after every block
#   resume-2t        `impactfit sweep --resume` after a SIGINT at about half: the resumed part
#   mpi-2x1          `mpirun -np 2 impactfit sweep --threads 1` (dynamic blocks, rank 0 writes)
# The CLI's figure is its own "points/s" (rows written over the wall time of the run, without the
# start-up: loading and checking the definition, MPI_Init). Every case runs REPEATS times,
# interleaved (case after case, round after round) so that a change of the machine's load hits all
# cases alike. On a shared machine other processes steal cores: every run measures the CPU time
# the whole machine spent (/proc/stat) minus its own (user + sys of the process tree), and a run
# during which other processes used more than 0.1 core on average is counted as disturbed and left
# out. Best, median and spread ((max - min)/max) of the undisturbed runs are printed, and the
# ratios of the bests. A model (bench_hpc ... model) also predicts the speed-up for 2..32 threads
# on idle cores from the CPU time of every work unit, which other processes do not disturb.
# usage: bench/run_hpc.sh [BUILD_DIR] [REPEATS] [DEFINITION]
set -eu
cd "$(dirname "$0")/.."
BUILD=${1:-build-bench}
REPEATS=${2:-5}
DEF=${3:-bench/hpc_copt.ini}
bash scripts/deps.sh build mpi
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DIMPACTFIT_MPI=ON -DIMPACTFIT_BUILD_TESTS=OFF >/dev/null
cmake --build "$BUILD" --target impactfit_cli bench_hpc -j"$(nproc)" >/dev/null
BIN=$BUILD/src/cli/impactfit
LIB=$BUILD/bench/bench_hpc
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
name=$(basename "$DEF" .ini)
points=$("$LIB" "$DEF" 1 discard 2>/dev/null | sed -n 's/^points \([0-9]*\) .*/\1/p') # also warms the caches
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "sweep: $DEF, $points points; $REPEATS rounds; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

cli_rate() { sed -n 's/.*(\([0-9]*\) points\/s).*/\1/p' "$1"; }
busy() { awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat; } # jiffies not idle
HZ=$(getconf CLK_TCK)
# measure CASE COMMAND...: runs it, keeps its output in $TMP/log, and records whether other
# processes used more than 0.1 core meanwhile
measure() {
  local c=$1
  shift
  local b0 t0 b1 t1
  b0=$(busy)
  t0=$(date +%s.%N)
  /usr/bin/time -f "%U %S" -o "$TMP/rusage" "$@" >"$TMP/log" 2>&1 || true
  t1=$(date +%s.%N)
  b1=$(busy)
  awk -v b0="$b0" -v b1="$b1" -v hz="$HZ" -v t0="$t0" -v t1="$t1" -v f="$TMP/rusage" 'BEGIN {
    getline r < f; split(r, u, " "); own = u[1] + u[2]
    others = (b1 - b0) / hz - own
    print (others > 0.1 * (t1 - t0)) ? "disturbed" : "clean" }' >"$TMP/state"
}
record() { # record CASE VALUE: keeps the value if the run was clean
  [ -n "$2" ] || return 0
  if [ "$(cat "$TMP/state")" = clean ]; then echo "$2" >>"$TMP/$1"; else echo "$2" >>"$TMP/$1.disturbed"; fi
}
fresh() { rm -rf "$TMP/out" && mkdir "$TMP/out"; }
cases="lib-1t lib-2t plain-2t cli-2t mpi-2x1 cli-2t-sync0 resume-2t"
lib_rate() { sed -n 's/.*points_per_s \([0-9.]*\).*/\1/p' "$TMP/log"; }
for r in $(seq "$REPEATS"); do
  for c in $cases; do
    fresh
    case $c in
    lib-1t) measure $c "$LIB" "$DEF" 1 discard && record $c "$(lib_rate)" ;;
    lib-2t) measure $c "$LIB" "$DEF" 2 discard && record $c "$(lib_rate)" ;;
    plain-2t) measure $c "$LIB" "$DEF" 2 file "$TMP/out/plain.csv" && record $c "$(lib_rate)" ;;
    cli-2t)
      measure $c "$BIN" sweep "$DEF" --out "$TMP/out" --threads 2 --quiet && record $c "$(cli_rate "$TMP/log")"
      cp "$TMP/out/$name.csv" "$TMP/ref.csv"
      ;;
    cli-2t-sync0)
      measure $c "$BIN" sweep "$DEF" --out "$TMP/out" --threads 2 --sync 0 --quiet && record $c "$(cli_rate "$TMP/log")"
      ;;
    resume-2t)
      "$BIN" sweep "$DEF" --out "$TMP/out" --threads 2 --quiet --sync 0 >/dev/null 2>&1 &
      pid=$!
      # stop it at about half the points, by the journal's last commit
      while kill -0 $pid 2>/dev/null; do
        n=$(grep -a '^commit ' "$TMP/out/$name.journal" 2>/dev/null | tail -n 1 | cut -d' ' -f2)
        [ "${n:-0}" -ge $((points / 2)) ] && break
        sleep 0.02
      done
      kill -INT $pid 2>/dev/null || true
      wait $pid || true
      measure $c "$BIN" sweep "$DEF" --out "$TMP/out" --threads 2 --resume --quiet && record $c "$(cli_rate "$TMP/log")"
      cmp -s "$TMP/out/$name.csv" "$TMP/ref.csv" || echo "WARNING: resumed CSV differs from the uninterrupted one"
      ;;
    mpi-2x1)
      measure $c mpirun -np 2 "$BIN" sweep "$DEF" --out "$TMP/out" --threads 1 --quiet && record $c "$(cli_rate "$TMP/log")"
      cmp -s "$TMP/out/$name.csv" "$TMP/ref.csv" || echo "WARNING: MPI CSV differs from the OpenMP one"
      ;;
    esac
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
# the runner's parallel efficiency from per-unit CPU times (a busy machine does not bias it)
"$LIB" "$DEF" 1 model
printf '%-14s %12s %12s %12s %8s %s\n' case best median worst spread "runs (undisturbed of all)"
for c in $cases; do
  touch "$TMP/$c" "$TMP/$c.disturbed"
  all=$(($(wc -l <"$TMP/$c") + $(wc -l <"$TMP/$c.disturbed")))
  sort -g "$TMP/$c" | awk -v c="$c" -v all="$all" '{ v[NR] = $1 } END {
    if (NR == 0) { printf "%-14s (every run disturbed: %d)\n", c, all; exit }
    med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%-14s %12.0f %12.0f %12.0f %7.1f%% %d of %d\n", c, v[NR], med, v[1], 100 * (v[NR] - v[1]) / v[NR], NR, all }'
  sort -g "$TMP/$c" | tail -n 1 >"$TMP/$c.best"
done
b() { local v; v=$(cat "$TMP/$1.best" 2>/dev/null); echo "${v:-0}"; }
awk -v l1="$(b lib-1t)" -v l2="$(b lib-2t)" -v p2="$(b plain-2t)" -v c2="$(b cli-2t)" -v s0="$(b cli-2t-sync0)" \
  -v rs="$(b resume-2t)" -v m2="$(b mpi-2x1)" 'BEGIN {
  if (l1 == 0 || l2 == 0 || p2 == 0 || c2 == 0) { print "ratios: not enough undisturbed runs"; exit }
  printf "speed-up 1 -> 2 threads (library):          %.3fx   (target >= 1.9x)\n", l2 / l1
  printf "MPI 2x1 / OpenMP 1x2 (both durable CLI):    %.3f    (target within 10%%: >= 0.90)\n", m2 / c2
  printf "durability overhead, default (fsync <= 2 s): %+.1f%%   (cli-2t vs plain-2t; target < 5%%)\n", 100 * (1 - c2 / p2)
  printf "durability overhead, --sync 0 (every block): %+.1f%%   (cli-2t-sync0 vs plain-2t)\n", 100 * (1 - s0 / p2)
  printf "resumed run vs fresh run:                    %+.1f%%   (resume-2t vs cli-2t; resume bookkeeping)\n", 100 * (1 - rs / c2)
  printf "writing at all (plain file vs discarded):    %+.1f%%   (plain-2t vs lib-2t)\n", 100 * (1 - p2 / l2)
}'
