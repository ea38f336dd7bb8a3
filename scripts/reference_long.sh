#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The long run of the reference-path property tests (tests/test_reference.c): many more random
# cases than ctest's fast subset, with scaled damping up to 300, on as many cores as asked.
# usage: scripts/reference_long.sh [BUILD_DIR] [CASES_PER_JOB] [JOBS] [SEED]
#   defaults: build-dev, 2000, 1, 1000  (job j uses seed SEED + j*10^7; about 0.05 s per case)
# Prints each job's largest errors and fails if a case exceeds impactfit's requirement (the stated
# figures are measured by `impactfit reproduce --topic accuracy` on the seeds of src/reference/ref_cases.h);
# every failure names its case's seed: `BUILD_DIR/tests/test_reference 1 SEED 300` reruns it.
set -eu
build=${1:-build-dev}
cases=${2:-2000}
jobs=${3:-1}
seed=${4:-1000}
exe="$build/tests/test_reference"
[ -x "$exe" ] || { echo "reference_long.sh: $exe not built (needs __float128/libquadmath)" >&2; exit 2; }
pids=()
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ((j = 0; j < jobs; j++)); do
  s=$((seed + j * 10000000))
  "$exe" "$cases" "$s" 300 >"$tmp/$j.out" 2>"$tmp/$j.err" &
  pids+=($!)
done
rc=0
for ((j = 0; j < jobs; j++)); do
  wait "${pids[$j]}" || rc=1
  echo "== job $j (seed $((seed + j * 10000000)), $cases cases)"
  cat "$tmp/$j.out"
  grep -E 'FAIL|checks failed' "$tmp/$j.err" || true
done
exit $rc
