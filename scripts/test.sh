#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds with warnings as errors, runs ctest.
set -eu
cd "$(dirname "$0")/.."
bash scripts/deps.sh build test
cmake -S . -B build-test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIMPACTFIT_WERROR=ON >/dev/null
cmake --build build-test -j"$(nproc)"
cd build-test
ctest --output-on-failure -j"$(nproc)"
