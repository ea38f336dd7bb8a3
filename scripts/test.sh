#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The whole test suite (what CI runs: .ci/run). docs/TESTING.md says what each stage costs and what
# it catches; the table at the end gives each stage's wall and CPU time on this run.
#   deps      installs what is missing (scripts/deps.sh)
#   build     build-test/: warnings as errors, the Python and Octave bindings, and impactfit-mpi
#             (the MPI variant of the CLI, from the same objects: -DIMPACTFIT_TEST_MPI=ON)
#   ctest     every ctest but the labels signals and load, $(nproc) at a time
#   load      the label signals (every test that interrupts, kills or races a process, MPI's
#             included) with one busy process per core (ctest -L load)
#   bindings  the Python package and the MEX functions as installed by cmake --install
#   doc       the API reference (Doxygen, warnings are errors): build-test/doc/html/index.html
#   tsan      build-tsan/: the sweep runner's tests under ThreadSanitizer (clang, libomp, Archer)
#   asan      build-asan/ (clang, ASan + UBSan, every report fatal; libFuzzer's coverage too): the
#             tests that exercise the code of outside input and of memory handling (scripts/asan.sh)
#   fuzz      every fuzz harness, from the committed corpus, in the same build (scripts/fuzz.sh:
#             FUZZ_SECONDS, default 10 s each)
#   valgrind  memcheck on one run of every command (scripts/valgrind.sh)
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc)

# ---- stage timing: wall (date) and CPU (user + sys of the finished child processes, `times`) ----
stages=()
tfile=$(mktemp)
trap 'rm -f "$tfile"' EXIT
cpu_now() { # CPU=user + sys seconds of this shell's finished children (not in a subshell: `times`)
  times >"$tfile"
  CPU=$(awk 'NR == 2 { n = split($0, f, " "); s = 0; for (i = 1; i <= n; i++) { split(f[i], p, "m"); sub("s", "", p[2]); s += p[1] * 60 + p[2] } printf "%.1f", s }' "$tfile")
}
now() { date +%s.%N; }
stage_name=""
stage() { # stage NAME: starts timing a stage (and ends the one before)
  stage_end
  stage_name=$1
  stage_t0=$(now)
  cpu_now
  stage_c0=$CPU
  echo "== $1"
}
stage_end() {
  [ -n "$stage_name" ] || return 0
  local t1 c1
  t1=$(now)
  cpu_now
  c1=$CPU
  stages+=("$(awk -v n="$stage_name" -v a="$stage_t0" -v b="$t1" -v c="$stage_c0" -v d="$c1" \
    'BEGIN { printf "%-9s %7.0f s %7.0f s", n, b - a, d - c }')")
  stage_name=""
}
summary() {
  local rc=$?
  [ $rc = 0 ] || { [ -n "$stage_name" ] && failed=$stage_name; }
  stage_end
  echo
  echo "stage       wall      CPU (user + sys, $(nproc) cores; load average now: $(cut -d' ' -f1-3 /proc/loadavg))"
  for s in "${stages[@]}"; do echo "$s"; done
  cpu_now
  awk -v a="$t_start" -v b="$(now)" -v c="$CPU" 'BEGIN { printf "total     %7.0f s %7.0f s\n", b - a, c }'
  [ $rc = 0 ] || echo "scripts/test.sh: FAILED in stage ${failed:-?} (exit $rc)"
  rm -f "$tfile"
}
t_start=$(now)
trap summary EXIT

stage deps
bash scripts/deps.sh build test python octave dem engines fuzz valgrind

stage build
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIMPACTFIT_WERROR=ON \
  -DIMPACTFIT_PYTHON=ON -DIMPACTFIT_OCTAVE=ON -DIMPACTFIT_TEST_MPI=ON >/dev/null
cmake --build build-test -j"$jobs"

stage ctest
(cd build-test && ctest --output-on-failure -j"$jobs" -LE 'signals|load')

stage load
(cd build-test && ctest --output-on-failure -L load)

stage bindings
bash scripts/test_bindings_install.sh build-test

stage doc
cmake --build build-test --target doc

stage tsan
CC=clang cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIMPACTFIT_TSAN=ON >/dev/null
cmake --build build-tsan -j"$jobs" --target test_sweep tsan_canary
(cd build-tsan && ctest --output-on-failure -L tsan)

stage asan
bash scripts/asan.sh

stage fuzz
bash scripts/fuzz.sh "${FUZZ_SECONDS:-10}"

stage valgrind
bash scripts/valgrind.sh build-test/src/cli/impactfit
