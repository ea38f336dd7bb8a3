#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The tests under AddressSanitizer + UndefinedBehaviorSanitizer, every report fatal
# (-fno-sanitize-recover=all; LeakSanitizer on): builds build-asan/ and runs ctest there.
# build-asan/ is clang with libFuzzer's coverage (-DIMPACTFIT_FUZZ=ON, static): the one sanitizer
# build of the suite, whose fuzz harnesses scripts/fuzz.sh runs, so that the library is not built
# twice with the sanitizers. Warnings are errors in the normal build only.
# usage: scripts/asan.sh [CTEST ARGS...]
#   default: every test but those below (docs/TESTING.md: why, and where their code runs under the
#   sanitizers all the same):
#     labels install, dem-codes, mbd-engines, load: separate projects, the real DEM and multibody
#       codes' own time (impactfit's side: cli_dem, test_demcodes, cli_engine, test_law,
#       test_stepper), the signal tests again under load;
#     labels web, slurm: Chromium and node; a Slurm cluster (hpc_slurm: the scheduler's faults, its sweeps
#       are cli_hpc's code, already excluded; under ASan and a loaded machine it ran past its 1200-s timeout);
#     test_copt, test_generated, test_zhang, test_ramaswamy, test_surrogate, check_published:
#       regenerations of committed results, the solvers, sweeps and fits of the faster tests
#       repeated over large grids (the topics' code runs once, in reproduce_quick);
#     cli_reproduce, report_page, report_page_committed: a second quick reproduction (determinism)
#       and Chromium on the first and on the committed report; doc_commands, doc_summary: the
#       documents' commands (the commands' own tests run here) and their tables;
#     cli_grid, cli_mpi, cli_hpc: interrupted grids, shards and kills (their commands: cli_copt,
#       cli_zhang, cli_simulate, cli_hc; the runner and its journal: test_sweep, test_sweepio and
#       the fuzz harnesses sweep and sweepio; cli_mpi is not built here);
#     test_identify: identification fits repeated over synthetic data sets (the same parsing and
#       fitting code: cli_identify and the fuzz harness identify);
#     front_ends: the CLI, Python and Octave refusing the same input alike (the bindings are not
#       built here; the CLI's side: cli_bad_input);
#     cli_copt, cli_zhang, cli_hc, cli_simulate, cli_multibody, cli_identify, cli_dem: the harnesses
#       of the commands of rounds 1 and 2 (their input handling: cli_bad_input and the fuzz harness
#       cli; one run of each under valgrind; their solvers: the unit tests and reproduce_quick);
#     cli_man, format, spdx_lines: no code of ours runs;
#     label web: the WebAssembly module (its own Emscripten build of the same sources) and the page.
#   The engines' test programs and the benchmarks are not built (IMPACTFIT_ENGINE_TESTS,
#   IMPACTFIT_BENCH off).
#   scripts/asan.sh -LE 'install|dem-codes|mbd-engines|load|web' runs every other test (the whole suite).
set -eu
cd "$(dirname "$0")/.."
bash scripts/deps.sh build test fuzz
bash scripts/asan_configure.sh
skip="test_copt|test_generated|test_zhang|test_ramaswamy|test_surrogate|check_published|cli_reproduce|report_page"
skip="$skip|report_page_committed|doc_commands|doc_summary"
older="cli_copt|cli_zhang|cli_hc|cli_simulate|cli_multibody|cli_identify|cli_dem"
if [ $# = 0 ]; then
  # the default selection: every target but the programs of the unit tests left out, the man pages
  # (help2man runs every command) and the Octave package
  unused="test_copt|test_generated|test_zhang|test_ramaswamy|test_surrogate|test_identify|impactfit_man|octave-pkg"
  # shellcheck disable=SC2046
  cmake --build build-asan -j"$(nproc)" --target $(cmake --build build-asan --target help |
    sed -n 's/^\([A-Za-z0-9_.-]*\): phony$/\1/p' | grep -vxE "all|clean|depend|lib.*|edit_cache|rebuild_cache|install.*|list_install_components|package.*|test|doc|$unused")
  set -- -LE "install|dem-codes|mbd-engines|load|web|slurm" -E "^($skip|cli_grid|cli_mpi|cli_hpc|test_identify|front_ends|$older|cli_man|format|spdx_lines)$"
else
  cmake --build build-asan -j"$(nproc)"
fi
cd build-asan
# detect_leaks: LeakSanitizer too; halt_on_error / -fno-sanitize-recover: the first report fails the test
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --output-on-failure -j"$(nproc)" "$@"
