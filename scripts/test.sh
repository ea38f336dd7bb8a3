#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds with warnings as errors, runs ctest; then
# the same tests under ASan + UBSan (build-asan/), every fuzz harness for FUZZ_SECONDS (default 30)
# from the committed corpus (build-fuzz/, clang + libFuzzer), and valgrind on one run of every command.
set -eu
cd "$(dirname "$0")/.."
bash scripts/deps.sh build test
jobs=$(nproc)
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIMPACTFIT_WERROR=ON >/dev/null
cmake --build build-test -j"$jobs"
(cd build-test && ctest --output-on-failure -j"$jobs")

echo "== ASan + UBSan (build-asan/): the tests under the sanitizers"
bash scripts/asan.sh
echo "== fuzzing (build-fuzz/): each harness ${FUZZ_SECONDS:-30} s"
bash scripts/fuzz.sh "${FUZZ_SECONDS:-30}"
echo "== valgrind memcheck: one run of every command"
bash scripts/valgrind.sh build-test/src/cli/impactfit
