#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The previous release against the working tree, in the same run (issue 34): builds the tag (default r2, the
# last commit of round 2; r3 the last of round 3) from `git archive` and the working tree, both
# RelWithDebInfo (the default build), runs each request of the list below ROUNDS times alternately, one thread,
# whole process, and prints the median wall and CPU (user + system) seconds of each and the ratio tree/tag of
# the CPU (the wall time on a shared machine includes other users' load; CPU is the repeatable figure). Then
# SciPy's time per c_opt point (bench/scipy_copt.py: DOP853 + brentq on 20 of the grid's points) in the same
# run, against the tree's copt grid per point. A slowdown shows as a ratio above 1. Where /usr/bin/python3 has
# NumPy, also the 60 000 copt points through each build's Python package (bench/python_copt.py: best of 3 CPU
# of the call, no text output), ROUNDS times alternately, and the median.
# usage: bench/run_release.sh [TAG] [ROUNDS]   (r2 and r3 are found by their commits where the tags were not fetched)
set -eu
cd "$(dirname "$0")/.."
TAG=${1:-r2}
ROUNDS=${2:-5}
# the release tags' commits, for a clone that did not fetch the tags
if ! git rev-parse -q --verify "$TAG^{commit}" >/dev/null; then
  case $TAG in
  r2) TAG=6a7ce28 ;;
  r3) TAG=835c476 ;;
  *)
    echo "bench/run_release.sh: error: '$TAG' is not a tag or commit of this repository" >&2
    exit 2
    ;;
  esac
fi
bash scripts/deps.sh build bench >/dev/null
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/src"
git archive "$TAG" | tar -x -m -C "$TMP/src"
opts=(--no-warn-unused-cli -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIMPACTFIT_PYTHON=OFF -DIMPACTFIT_OCTAVE=OFF
  -DIMPACTFIT_ENGINE_TESTS=OFF -DIMPACTFIT_BENCH=OFF)
cmake -S "$TMP/src" -B "$TMP/build-tag" "${opts[@]}" >/dev/null
cmake --build "$TMP/build-tag" --target impactfit_cli >/dev/null 2>&1 || cmake --build "$TMP/build-tag" >/dev/null
cmake -S . -B build-bench "${opts[@]}" >/dev/null
cmake --build build-bench --target impactfit_cli >/dev/null
# the Python packages, each in a build of its own (build-bench stays without Python for the other benchmarks)
PY=0
if /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  pyopts=("${opts[@]/-DIMPACTFIT_PYTHON=OFF/-DIMPACTFIT_PYTHON=ON}" -DPython3_EXECUTABLE=/usr/bin/python3)
  cmake -S "$TMP/src" -B "$TMP/py-tag" "${pyopts[@]}" >/dev/null &&
    cmake --build "$TMP/py-tag" --target impactfit_python impactfit_python_files >/dev/null &&
    cmake -S . -B build-bench-py "${pyopts[@]}" >/dev/null &&
    cmake --build build-bench-py --target impactfit_python impactfit_python_files >/dev/null && PY=1
fi
OLD="$TMP/build-tag/src/cli/impactfit"
NEW="build-bench/src/cli/impactfit"
requests=(
  "copt --n 1:2:100 --e 0.45:0.99:600 --csv --threads 1"
  "simulate --n 1:2:100 --c 0.1:2:200 --csv --threads 1"
  "zhang-alpha --n 1.5 --m 0.25:1.5:20 --e 0.1:0.9:100 --csv --threads 1"
)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "tag $TAG = $(git rev-parse --short "$TAG^{commit}"), tree = $(git rev-parse --short HEAD)$(git diff --quiet || echo '+changes'); $ROUNDS rounds, median"
median() { sort -g | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
printf '%-70s %16s %16s %7s\n' "request (whole process)" "$TAG wall/CPU s" "tree wall/CPU s" "CPU x"
for r in "${requests[@]}"; do
  : >"$TMP/old" && : >"$TMP/new"
  for _ in $(seq "$ROUNDS"); do
    for side in old new; do
      bin=$OLD && [ $side = new ] && bin=$NEW
      # shellcheck disable=SC2086
      /usr/bin/time -f '%e %U %S' -o "$TMP/t" $bin $r >"$TMP/out.$side" 2>/dev/null
      awk '{printf "%s %.3f\n", $1, $2 + $3}' "$TMP/t" >>"$TMP/$side"
    done
  done
  ow=$(cut -d' ' -f1 "$TMP/old" | median) oc=$(cut -d' ' -f2 "$TMP/old" | median)
  nw=$(cut -d' ' -f1 "$TMP/new" | median) nc=$(cut -d' ' -f2 "$TMP/new" | median)
  printf '%-70s %7.3f/%-8.3f %7.3f/%-8.3f %7.2f\n' "$r" "$ow" "$oc" "$nw" "$nc" "$(awk -v a="$nc" -v b="$oc" 'BEGIN {print a / b}')"
  case $r in copt*) cp "$TMP/out.new" "$TMP/copt.csv" && copt_cpu=$nc ;; esac
done
if [ $PY = 1 ]; then
  : >"$TMP/old" && : >"$TMP/new"
  for _ in $(seq "$ROUNDS"); do
    /usr/bin/python3 bench/python_copt.py "$TMP/py-tag/python" >>"$TMP/old"
    /usr/bin/python3 bench/python_copt.py build-bench-py/python >>"$TMP/new"
  done
  oc=$(median <"$TMP/old") nc=$(median <"$TMP/new")
  printf '%-70s %7s/%-8.3f %7s/%-8.3f %7.2f\n' "Python impactfit.copt(n=..., e=...), the same 60 000 points" - "$oc" - "$nc" \
    "$(awk -v a="$nc" -v b="$oc" 'BEGIN {print a / b}')"
else
  echo "Python row skipped: /usr/bin/python3 has no NumPy (scripts/deps.sh python)"
fi
# the RHS evaluations per point of the copt grid (deterministic)
for side in old new; do
  bin=$OLD && [ $side = new ] && bin=$NEW
  "$bin" copt --n 1:2:100 --e 0.45:0.99:600 --csv --threads 1 2>/dev/null |
    awk -F, -v s=$side 'NR == 1 {for (i = 1; i <= NF; i++) if ($i == "rhs_evals") k = i} NR > 1 {r += $k; n++} END {printf "copt grid RHS evaluations per point (%s): %.1f\n", s, r / n}'
done
if /usr/bin/python3 -c 'import scipy' 2>/dev/null; then
  awk -F, 'NR == 1 || (NR - 2) % 3001 == 0' "$TMP/copt.csv" >"$TMP/points.csv" # 20 points spread over the grid
  /usr/bin/python3 bench/scipy_copt.py "$TMP/points.csv" 20 | tee "$TMP/scipy.txt"
  sp=$(sed -n 's/^SCIPY_CPU_US_PER_POINT //p' "$TMP/scipy.txt")
  awk -v c="$copt_cpu" -v s="$sp" 'BEGIN {printf "copt grid: impactfit %.2f us/point (whole process, CPU), SciPy %.0f us/point (CPU): %.0fx\n", 1e6 * c / 60000, s, s / (1e6 * c / 60000)}'
else
  echo "SciPy not installed (scripts/deps.sh bench): no peer time"
fi
