#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The tests under AddressSanitizer + UndefinedBehaviorSanitizer, every report fatal
# (-fno-sanitize-recover=all; LeakSanitizer on): builds build-asan/ and runs ctest there.
# build-asan/ is clang with libFuzzer's coverage (-DIMPACTFIT_FUZZ=ON, static): the one sanitizer
# build of the suite, whose fuzz harnesses scripts/fuzz.sh runs, so that the library is not built
# twice with the sanitizers. Warnings are errors in the normal build only.
# usage: scripts/asan.sh [CTEST ARGS...]
#   default: the tests that exercise memory handling and outside input, whose sanitizer time is
#   spent on new paths, not on the same path a thousand times. docs/TESTING.md lists the tests left
#   out here and where their code runs under the sanitizers:
#     install, dem-codes   separate projects and the DEM codes' own time (impactfit dem: cli_dem)
#     signals, load        the interrupted runs (their code: cli_sweep, cli_copt, cli_outputs, ...)
#     test_copt, test_zhang, test_ramaswamy, test_generated, test_surrogate, test_reference,
#     check_published, reproduce_quick, cli_reproduce, report_page
#                          regenerations of committed results: the same solvers, sweeps and fits
#                          as the faster tests, repeated over large grids (minutes under ASan)
#   scripts/asan.sh -LE 'install|dem-codes|load'   runs every other test (about 15 minutes).
set -eu
cd "$(dirname "$0")/.."
bash scripts/deps.sh build test fuzz
# build-asan/ of an older version (gcc, without the fuzz harnesses) cannot be reconfigured for clang
if [ -f build-asan/CMakeCache.txt ] && ! grep -q '^CMAKE_C_COMPILER:[A-Z]*=.*clang' build-asan/CMakeCache.txt; then
  rm -rf build-asan
fi
CC=clang cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIMPACTFIT_ASAN=ON -DIMPACTFIT_UBSAN=ON \
  -DIMPACTFIT_FUZZ=ON -DBUILD_SHARED_LIBS=OFF -DIMPACTFIT_PYTHON=OFF -DIMPACTFIT_OCTAVE=OFF -DIMPACTFIT_WERROR=OFF >/dev/null
cmake --build build-asan -j"$(nproc)"
cd build-asan
if [ $# = 0 ]; then
  set -- -LE "install|dem-codes|signals|load" \
    -E "^(test_copt|test_zhang|test_ramaswamy|test_generated|test_surrogate|test_reference|check_published|reproduce_quick|cli_reproduce|report_page)$"
fi
# detect_leaks: LeakSanitizer too; halt_on_error / -fno-sanitize-recover: the first report fails the test
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --output-on-failure -j"$(nproc)" "$@"
