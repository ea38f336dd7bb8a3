#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Configures build-asan/, the one sanitizer build of the suite, for scripts/asan.sh and scripts/fuzz.sh:
# clang, ASan + UBSan, libFuzzer's coverage (-DIMPACTFIT_FUZZ=ON), static, the engines' test programs and
# the benchmarks left out. Generator: Ninja. The scripts build a list of targets, and a Makefile build
# takes the targets named on its command line one after another (CMake's top-level Makefile is
# .NOTPARALLEL), so each one-file test program compiled and linked alone: the same 38 targets took
# 86 s with make and 60 s with ninja on the 2-core machine, for the same CPU time.
# A build-asan/ of an older version (gcc, without the fuzz harnesses; g++ for the C++ engine harnesses,
# which -fsanitize=fuzzer-no-link does not build; or Makefiles) cannot be reconfigured: it is removed.
# usage: scripts/asan_configure.sh   (from scripts/asan.sh and scripts/fuzz.sh, after scripts/deps.sh fuzz)
set -eu
cd "$(dirname "$0")/.."
c=build-asan/CMakeCache.txt
if [ -f $c ] && { ! grep -q '^CMAKE_C_COMPILER:[A-Z]*=.*clang' $c ||
  { grep -q '^CMAKE_CXX_COMPILER:' $c && ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++' $c; } ||
  ! grep -qx 'CMAKE_GENERATOR:INTERNAL=Ninja' $c; }; then
  rm -rf build-asan
fi
CC=clang CXX=clang++ cmake -G Ninja -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIMPACTFIT_ASAN=ON \
  -DIMPACTFIT_UBSAN=ON -DIMPACTFIT_FUZZ=ON -DBUILD_SHARED_LIBS=OFF -DIMPACTFIT_PYTHON=OFF -DIMPACTFIT_OCTAVE=OFF \
  -DIMPACTFIT_WERROR=OFF -DIMPACTFIT_ENGINE_TESTS=OFF -DIMPACTFIT_BENCH=OFF >/dev/null
