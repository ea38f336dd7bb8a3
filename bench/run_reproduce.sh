#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The main job's time per topic: `impactfit reproduce` (full, or --quick) into a scratch directory
# (reports/ is not touched), its timings.txt (wall and CPU seconds of every topic) printed and appended
# to bench/reproduce_times.tsv with the commit, the machine and its load, so that the history shows
# where the time goes and what a change cost. The targets (issue 26): full under 5 minutes and --quick
# under 1 minute of wall time on an idle 2-core machine. On a shared machine the wall time grows with
# the load; the CPU time does not (up to the cost of sharing the caches), so compare CPU time there.
# usage: bench/run_reproduce.sh [--quick] [BUILD_DIR]
set -eu
cd "$(dirname "$0")/.."
MODE=full
if [ "${1:-}" = "--quick" ]; then
  MODE=quick
  shift
fi
BUILD=${1:-build}
bash scripts/deps.sh build main dem >/dev/null
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" -j"$(nproc)" >/dev/null
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
load0=$(cut -d' ' -f1 /proc/loadavg)
if [ "$MODE" = quick ]; then
  "$BUILD/src/cli/impactfit" reproduce --src . --out "$OUT" --quick --quiet >/dev/null
else
  "$BUILD/src/cli/impactfit" reproduce --src . --out "$OUT" --quiet >/dev/null
fi
load1=$(cut -d' ' -f1 /proc/loadavg)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')
echo "machine: $(nproc) cores, $cpu; load average $load0 before, $load1 after"
echo "mode: $MODE"
cat "$OUT/timings.txt"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
HIST=bench/reproduce_times.tsv
[ -s "$HIST" ] || printf 'date\tcommit\tmode\ttopic\twall_s\tcpu_s\tcores\tload_before\tload_after\n' >"$HIST"
# "topic: W s wall, C s CPU" lines of timings.txt
sed -n 's/^\([a-z-]*\): \([0-9.]*\) s wall, \([0-9.]*\) s CPU.*$/\1\t\2\t\3/p' "$OUT/timings.txt" |
  while IFS=$'\t' read -r topic wall cpus; do
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$commit" "$MODE" "$topic" \
      "$wall" "$cpus" "$(nproc)" "$load0" "$load1" >>"$HIST"
  done
echo "appended to $HIST"
