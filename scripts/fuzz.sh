#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Fuzzes every parser of outside input with libFuzzer under ASan + UBSan (fatal), from the committed
# corpus and the repository's own files, and fails on any crash, hang, leak or sanitizer report.
# usage: scripts/fuzz.sh [SECONDS [HARNESS...]]     (default: 30 s each, every harness)
#   builds build-fuzz/ (clang, -DIMPACTFIT_FUZZ=ON), runs the harnesses $(nproc) at a time; new
#   inputs accumulate in build-fuzz/corpus/NAME, failing inputs go to build-fuzz/crashes/NAME/,
#   each run's log to build-fuzz/logs/NAME.log. A failing input belongs in tests/fuzz/regress/NAME/
#   once fixed (ctest replays it).
set -eu
cd "$(dirname "$0")/.."
secs=${1:-30}
shift || true
harnesses=${*:-sweep sweepdef fit identify table cli sweepio}
bash scripts/deps.sh build fuzz
CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIMPACTFIT_FUZZ=ON \
  -DIMPACTFIT_ASAN=ON -DIMPACTFIT_UBSAN=ON -DBUILD_SHARED_LIBS=OFF >/dev/null
targets=""
for h in $harnesses; do targets="$targets fuzz_$h"; done
# shellcheck disable=SC2086
cmake --build build-fuzz -j"$(nproc)" --target $targets >/dev/null

seeds_sweep="sweeps"
seeds_fit="fits"
seeds_identify="tests/data"
run_one() {
  h=$1
  secs=$2
  mkdir -p "build-fuzz/corpus/$h" "build-fuzz/crashes/$h" build-fuzz/logs
  extra=""
  case $h in
    sweep) extra=$seeds_sweep ;;
    fit) extra=$seeds_fit ;;
    identify) extra=$seeds_identify ;;
  esac
  dict=""
  [ -f "tests/fuzz/$h.dict" ] && dict="-dict=tests/fuzz/$h.dict"
  # -timeout: one input longer than 10 s is a hang; -rss_limit_mb (also the malloc limit): memory.
  # -close_fd_mask=3 silences the CLI helpers' error lines; sanitizer reports still reach the log.
  # shellcheck disable=SC2086
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ASAN_OPTIONS=detect_leaks=1 \
    "build-fuzz/tests/fuzz/fuzz_$h" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="build-fuzz/crashes/$h/" $dict \
    "build-fuzz/corpus/$h" "tests/fuzz/corpus/$h" $extra >"build-fuzz/logs/$h.log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "build-fuzz/logs/$h.log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "build-fuzz/logs/$h.log")
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "build-fuzz/logs/$h.log")
  # the corpus in memory at the end (committed seeds and new inputs), from libFuzzer's last status line
  corpus=$(grep -o 'corp: [0-9]*' "build-fuzz/logs/$h.log" | tail -1 | cut -d' ' -f2)
  printf 'fuzz %-9s %5s s  %10s execs  %6s/s  corpus %5s  peak %4s MB  %s\n' "$h" "$secs" "${execs:-?}" \
    "${rate:-?}" "$corpus" "${rss:-?}" "$([ $rc = 0 ] && echo ok || echo "FAILED (exit $rc, see build-fuzz/logs/$h.log)")"
  return $rc
}
export -f run_one
export seeds_sweep seeds_fit seeds_identify
# shellcheck disable=SC2086
printf '%s\n' $harnesses | xargs -P "$(nproc)" -I{} bash -c "run_one {} $secs"
