#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# One impact: the engine against plain GSL evolve loops (rkf45, rkck, rk8pd, msadams) on exact
# problems, same machine, same run. usage: bench/run_impact.sh [BUILD_DIR] [REPEATS]
set -eu
cd "$(dirname "$0")/.."
BUILD=${1:-build}
bash scripts/deps.sh build
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" --target bench_impact -j"$(nproc)" >/dev/null
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
"$BUILD/bench/bench_impact" "${2:-2000}"
