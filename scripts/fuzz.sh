#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Fuzzes every parser of outside input with libFuzzer under ASan + UBSan (fatal), from the committed
# corpus and the repository's own files, and fails on any crash, hang, leak or sanitizer report.
# usage: scripts/fuzz.sh [SECONDS [HARNESS...]]     (default: 10 s each, every harness)
#   builds the harnesses in build-asan/ (clang, ASan + UBSan, -DIMPACTFIT_FUZZ=ON: the build of
#   scripts/asan.sh, so the suite builds the sanitized library once), runs them $(nproc) at a time;
#   new inputs accumulate in build-asan/fuzz/corpus/NAME, failing inputs go to
#   build-asan/fuzz/crashes/NAME/, each run's log to build-asan/fuzz/logs/NAME.log. A failing input
#   belongs in tests/fuzz/regress/NAME/ once fixed (ctest replays it). 6 s each in the test suite:
#   the committed corpus is saturated (docs/TESTING.md: no new coverage after the first seconds of
#   a 30 s run); campaigns of minutes per harness find what is left (docs/HARDENING.md).
set -eu
cd "$(dirname "$0")/.."
secs=${1:-10}
shift || true
harnesses=${*:-sweep sweepdef fit identify table cli sweepio}
bash scripts/deps.sh build test fuzz
bash scripts/asan_configure.sh
targets=""
for h in $harnesses; do targets="$targets fuzz_$h"; done
# shellcheck disable=SC2086
cmake --build build-asan -j"$(nproc)" --target $targets >/dev/null
F=build-asan/fuzz

seeds_sweep="sweeps"
seeds_fit="fits"
seeds_identify="tests/data"
run_one() {
  h=$1
  secs=$2
  mkdir -p "$F/corpus/$h" "$F/crashes/$h" "$F/logs"
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
    "build-asan/tests/fuzz/fuzz_$h" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
    -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$F/crashes/$h/" $dict \
    "$F/corpus/$h" "tests/fuzz/corpus/$h" $extra >"$F/logs/$h.log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$F/logs/$h.log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$F/logs/$h.log")
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$F/logs/$h.log")
  # the corpus in memory at the end (committed seeds and new inputs), from libFuzzer's last status line
  corpus=$(grep -o 'corp: [0-9]*' "$F/logs/$h.log" | tail -1 | cut -d' ' -f2)
  # inputs that reached new coverage after the corpus was loaded (INITED), and the execution of the last
  new=$(awk '/INITED/ { on = 1; next } on && / NEW / { n++; sub(/^#/, "", $1); last = $1 } END { printf "%d (last at #%s)", n, last ? last : "-" }' "$F/logs/$h.log")
  printf 'fuzz %-9s %5s s  %10s execs  %6s/s  corpus %5s  new %-22s peak %4s MB  %s\n' "$h" "$secs" "${execs:-?}" \
    "${rate:-?}" "$corpus" "$new" "${rss:-?}" "$([ $rc = 0 ] && echo ok || echo "FAILED (exit $rc, see $F/logs/$h.log)")"
  return $rc
}
export -f run_one
export seeds_sweep seeds_fit seeds_identify F
# shellcheck disable=SC2086
printf '%s\n' $harnesses | xargs -P "$(nproc)" -I{} bash -c "run_one {} $secs"
