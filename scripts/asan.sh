#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer, every report fatal
# (-fno-sanitize-recover=all): builds build-asan/ (-O1) and runs ctest there. Warnings are errors in
# the normal build only: at -O1 gcc 12 reports a -Wrestrict false positive (topic_copt.c).
# usage: scripts/asan.sh [CTEST ARGS...]   (default: every test but the install/consumer test,
#   whose separate project is not built with the sanitizers, and test_copt, which regenerates a
#   60000-point sweep through code the other tests cover: 143 s under ASan, the suite's longest;
#   the dem-codes label, whose time is the real DEM codes' own: impactfit's side of it, the dem
#   command, is covered by cli_dem and test_demcodes; and cli_grid, whose grids are sized to run for
#   seconds so that they can be interrupted (minutes under ASan): the grid commands' code runs under
#   the sanitizers in cli_copt, cli_zhang, cli_simulate and cli_hc)
set -eu
cd "$(dirname "$0")/.."
bash scripts/deps.sh build test
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g" \
  -DIMPACTFIT_ASAN=ON -DIMPACTFIT_UBSAN=ON -DIMPACTFIT_WERROR=OFF >/dev/null
cmake --build build-asan -j"$(nproc)"
cd build-asan
[ $# -gt 0 ] || set -- -LE "install|dem-codes" -E "^(test_copt|cli_grid)$"
# detect_leaks: LeakSanitizer too; halt_on_error / -fno-sanitize-recover: the first report fails the test
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --output-on-failure -j"$(nproc)" "$@"
