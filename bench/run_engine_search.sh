#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# One engine answer (impactfit_code_solve): MuJoCo's soft contact at its defaults, inverse and forward,
# Euler and RK4, beside the inverse's first version (exact 25-point scan). usage: bench/run_engine_search.sh
# [BUILD_DIR] [REPEATS]
set -eu
cd "$(dirname "$0")/.."
BUILD=${1:-build}
bash scripts/deps.sh build
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" --target bench_engine_search -j"$(nproc)" >/dev/null
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
"$BUILD/bench/bench_engine_search" "${2:-5}"
