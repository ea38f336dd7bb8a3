#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The whole test suite (what CI runs: .ci/run). docs/TESTING.md says what each stage costs and what
# it catches; the table at the end gives each stage's wall and CPU time on this run.
# usage: scripts/test.sh [--dry-run] [STAGE...]
#   STAGE...   only these stages, in the order below (default: all; the later ones need build-test/)
#   --dry-run  prints each stage's commands and the ctests each ctest stage selects, and checks that
#              every ctest of build-test/ is in exactly one stage and has a TIMEOUT; runs nothing
# stages:
#   deps         installs what is missing (scripts/deps.sh)
#   build        build-test/: warnings as errors, the Python and Octave bindings, and impactfit-mpi
#                (the MPI variant of the CLI, from the same objects: -DIMPACTFIT_TEST_MPI=ON)
#   ctest        every ctest but the labels of the stages below, $(nproc) at a time: the real DEM codes
#                (LAMMPS, LIGGGHTS, YADE: label dem-codes) and multibody engines (MuJoCo, Simbody, ODE,
#                Bullet, DART; the npm engines through node: label mbd-engines) among the others, so that
#                their serial runs fill the cores
#   dem-codes    (only when named) the label dem-codes alone, which the stage ctest runs too
#   mbd-engines  (only when named) the label mbd-engines alone, which the stage ctest runs too
#   load         the label signals (every test that interrupts, kills or races a process, MPI's
#                included) with one busy process per core (ctest -L load)
#   packaging    pip, Octave's pkg and the Debian package, each installed and removed (label packaging),
#                $(nproc) at a time
#   bindings     the Python package and the MEX functions as installed by cmake --install
#   doc          the API reference (Doxygen, warnings are errors): build-test/doc/html/index.html
#   tsan         build-tsan/: the sweep runner's and the engine answers' threads (test_threads) under ThreadSanitizer (clang, libomp, Archer);
#                with packaging in the same run, it starts in the background beside packaging
#   asan         build-asan/ (clang, ASan + UBSan, every report fatal; libFuzzer's coverage too): the
#                tests that exercise the code of outside input and of memory handling (scripts/asan.sh)
#   fuzz         every fuzz harness, from the committed corpus, in the same build (scripts/fuzz.sh:
#                FUZZ_SECONDS, default 6 s each)
#   valgrind     memcheck on one run of every command (scripts/valgrind.sh)
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc)
all_stages="deps build ctest load packaging bindings doc tsan asan fuzz valgrind"
# stages that run only when named (their tests are in the stage ctest)
extra_stages="dem-codes mbd-engines"
dry=0
want=""
for a in "$@"; do
  case $a in
  --dry-run) dry=1 ;;
  -h | --help)
    sed -n '/^# usage/,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
    ;;
  *)
    case " $all_stages $extra_stages " in
    *" $a "*) want="$want $a" ;;
    *)
      echo "scripts/test.sh: error: no stage '$a' (stages: $all_stages $extra_stages)" >&2
      exit 2
      ;;
    esac
    ;;
  esac
done
[ -n "$want" ] || want=" $all_stages"
# the labels that have a stage of their own; the stage ctest runs every other test
own_labels="signals|load|packaging"

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
  # a tsan build started with packaging that the stage tsan did not collect (a stage before it failed)
  if [ -n "${tsan_pid:-}" ]; then
    wait "$tsan_pid" 2>/dev/null || true
    rm -f "$tsan_log"
  fi
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
run() { # run CMD...: runs it, or prints it (--dry-run)
  if [ $dry = 1 ]; then echo "  $*"; else "$@"; fi
}
quiet() { "$@" >/dev/null; }
in_dir() { # in_dir DIR CMD...
  local d=$1
  shift
  (cd "$d" && "$@")
}
tests_of() { # tests_of CTEST-OPTIONS...: the names of the tests of build-test/ they select
  (cd build-test && ctest -N "$@") | sed -n 's/^ *Test *#[0-9]*: //p'
}
selects=""
ctest_stage() { # ctest_stage CTEST-OPTIONS...: runs ctest in build-test/ (--dry-run: lists its tests)
  run in_dir build-test ctest --output-on-failure "$@"
  if [ $dry = 1 ] && [ -f build-test/CTestTestfile.cmake ]; then
    local t
    t=$(tests_of "$@")
    echo "    $(echo "$t" | grep -c . || true) tests: $(echo $t)"
    selects="$selects$t
"
  fi
}

# wasm, web: Emscripten and playwright-core for the browser test (label web). The WebAssembly dependencies
# (scripts/wasm.sh deps: GSL, NLopt, xxHash from Debian's sources, about 5 CPU minutes once per machine)
# are the main job's to build: where they are not cached, web_module tests the committed module instead
# (and web_committed, which compares it with a fresh build, says SKIP), so the test command stays in its
# budget on a fresh machine
s_deps() { run bash scripts/deps.sh build test python octave dem engines npm-engines fuzz valgrind slurm wasm web; }
# Ninja (deps: ninja-build): 44 s of wall and 87 s of CPU for this build on the 2-core machine, make 59 s
# and 112 s (its recursive Makefiles); a build-test/ of another generator cannot be reconfigured: removed
s_build() {
  if [ -f build-test/CMakeCache.txt ] && ! grep -qx 'CMAKE_GENERATOR:INTERNAL=Ninja' build-test/CMakeCache.txt; then
    run rm -rf build-test
  fi
  run quiet cmake -G Ninja -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIMPACTFIT_WERROR=ON \
    -DIMPACTFIT_PYTHON=ON -DIMPACTFIT_OCTAVE=ON -DIMPACTFIT_TEST_MPI=ON
  run cmake --build build-test -j"$jobs"
}
# one more test than cores: the DEM codes' and the engines' runs, the install consumers and the document
# commands wait on process starts and builds for part of their time
s_ctest() { ctest_stage -j"$((jobs + 1))" -LE "$own_labels"; }
s_dem_codes() { ctest_stage -j"$jobs" -L dem-codes; }
s_mbd_engines() { ctest_stage -j"$jobs" -L mbd-engines; }
s_load() {
  ctest_stage -L load
  # what the test load runs (ctest -L signals, under load)
  if [ $dry = 1 ] && [ -f build-test/CTestTestfile.cmake ]; then
    local t
    t=$(tests_of -L signals)
    echo "    in it, ctest -L signals: $(echo $t)"
    selects="$selects$t
"
  fi
}
# each builds the project again (pip's CMake, the .deb's Release build) with 2 jobs: their configure,
# install and dpkg steps are serial, so two at a time fill the cores
# The stage tsan (its own build) starts in the background with packaging, whose configure, install and
# dpkg steps leave a core idle; the stage tsan then waits for it and prints its output (its wall time in
# the table is what was left after packaging, its CPU all of it).
tsan_pid=""
tsan_log=""
s_packaging() {
  if [ $dry = 0 ] && case "$want " in *" tsan "*) true ;; *) false ;; esac; then
    tsan_log=$(mktemp)
    (tsan_commands) >"$tsan_log" 2>&1 &
    tsan_pid=$!
  fi
  ctest_stage -j"$jobs" -L packaging
}
s_bindings() { run bash scripts/test_bindings_install.sh build-test; }
s_doc() { run cmake --build build-test --target doc; }
tsan_commands() {
  run quiet env CC=clang cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIMPACTFIT_TSAN=ON
  run cmake --build build-tsan -j"$jobs" --target test_sweep test_threads tsan_canary
  run in_dir build-tsan ctest --output-on-failure -L tsan
}
s_tsan() {
  if [ -n "$tsan_pid" ]; then # started with packaging
    local rc=0
    wait "$tsan_pid" || rc=$?
    cat "$tsan_log"
    rm -f "$tsan_log"
    tsan_pid=""
    return $rc
  fi
  tsan_commands
}
s_asan() { run bash scripts/asan.sh; }
s_fuzz() { run bash scripts/fuzz.sh "${FUZZ_SECONDS:-6}"; }
s_valgrind() { run bash scripts/valgrind.sh build-test/src/cli/impactfit; }

if [ $dry = 1 ]; then
  trap 'rm -f "$tfile"' EXIT
  for st in $all_stages $extra_stages; do
    case "$want " in *" $st "*) ;; *) continue ;; esac
    echo "== $st"
    "s_${st//-/_}"
  done
  if [ -f build-test/CTestTestfile.cmake ] && [ "$want" = " $all_stages" ]; then
    # every test in exactly one stage (the stage load runs the label signals)
    all=$(tests_of | sort)
    got=$(printf '%s' "$selects" | grep . | sort)
    missing=$(comm -23 <(echo "$all") <(echo "$got" | sort -u))
    twice=$(echo "$got" | uniq -d)
    echo "== $(echo "$all" | grep -c .) ctests in build-test/; in no stage: ${missing:-none}; in two: ${twice:-none}"
    # every test has a TIMEOUT (a bound against a hang: tests/CMakeLists.txt)
    untimed=$( (cd build-test && ctest --show-only=json-v1) | python3 -c '
import json, sys
for t in json.load(sys.stdin)["tests"]:
    if not any(p["name"] == "TIMEOUT" for p in t.get("properties", [])):
        print(t["name"])')
    echo "== ctests without a TIMEOUT: ${untimed:-none}"
    [ -z "$missing$twice$untimed" ] || exit 1
  fi
  exit 0
fi

t_start=$(now)
trap summary EXIT
for st in $all_stages $extra_stages; do
  case "$want " in *" $st "*) ;; *) continue ;; esac
  stage "$st"
  "s_${st//-/_}"
done
