#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs the c_opt benchmark and the SciPy baseline on the same machine in the same run, and prints
# the ratio. usage: bench/run_copt.sh [BUILD_DIR]   (builds bench_copt in BUILD_DIR, default build)
set -eu
cd "$(dirname "$0")/.."
BUILD=${1:-build}
bash scripts/deps.sh build bench
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" --target bench_copt -j"$(nproc)" >/dev/null
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
"$BUILD/bench/bench_copt" "$TMP/points.csv" | tee "$TMP/ours.txt"
/usr/bin/python3 bench/scipy_copt.py "$TMP/points.csv" 20 | tee "$TMP/scipy.txt"
ours=$(sed -n 's/^isolated points.*: [0-9]* points, \([0-9.]*\) us\/point.*/\1/p' "$TMP/ours.txt")
theirs=$(sed -n 's/^SCIPY_US_PER_POINT //p' "$TMP/scipy.txt")
awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "isolated point: impactfit %.2f us, SciPy %.0f us: %.0fx faster\n", a, b, b / a }'
