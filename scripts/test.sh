#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The whole test suite: installs what is missing, builds with warnings as errors, runs ctest, builds
# the API reference (Doxygen, warnings as errors); then
# the same tests under ASan + UBSan (build-asan/), every fuzz harness for FUZZ_SECONDS (default 30)
# from the committed corpus (build-fuzz/, clang + libFuzzer), valgrind on one run of every command,
# the MPI variant of the CLI (build-mpi/: `mpirun -np 2` against a serial run) and a ThreadSanitizer
# build of the sweep runner's tests (build-tsan/: clang, libomp and LLVM's Archer).
set -eu
cd "$(dirname "$0")/.."
bash scripts/deps.sh build test python octave dem engines
jobs=$(nproc)
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIMPACTFIT_WERROR=ON \
  -DIMPACTFIT_PYTHON=ON -DIMPACTFIT_OCTAVE=ON >/dev/null
cmake --build build-test -j"$jobs"
(cd build-test && ctest --output-on-failure -j"$jobs")

echo "== bindings: the Python package and the MEX functions as installed by cmake --install"
bash scripts/test_bindings_install.sh build-test
echo "== API reference (Doxygen, warnings are errors): build-test/doc/html/index.html"
cmake --build build-test --target doc

echo "== MPI build (-DIMPACTFIT_MPI=ON): 2 ranks against a serial run"
cmake -S . -B build-mpi -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIMPACTFIT_WERROR=ON -DIMPACTFIT_MPI=ON >/dev/null
cmake --build build-mpi -j"$jobs" --target impactfit_cli
(cd build-mpi && ctest --output-on-failure -L mpi)

echo "== ThreadSanitizer build of the sweep runner's tests (clang, libomp, Archer)"
CC=clang cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIMPACTFIT_TSAN=ON >/dev/null
cmake --build build-tsan -j"$jobs" --target test_sweep tsan_canary
(cd build-tsan && ctest --output-on-failure -L tsan)

echo "== ASan + UBSan (build-asan/): the tests under the sanitizers"
bash scripts/asan.sh
echo "== fuzzing (build-fuzz/): each harness ${FUZZ_SECONDS:-30} s"
bash scripts/fuzz.sh "${FUZZ_SECONDS:-30}"
echo "== valgrind memcheck: one run of every command"
bash scripts/valgrind.sh build-test/src/cli/impactfit
