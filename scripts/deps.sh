#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the Debian 12 packages impactfit needs and that are missing, with apt-get (through sudo
# when not run as root). usage: scripts/deps.sh GROUP...   groups: build main test mpi bench fuzz valgrind python
# octave dem engines npm-engines wasm web slurm
set -eu
declare -A group
# libfl-dev: the -ll that `pkg-config --static libmatheval` names (static consumers, tests/consumer)
group[build]="build-essential cmake pkg-config libgsl-dev libnlopt-dev libinih-dev libxxhash-dev libmatheval-dev libjansson-dev libfl-dev libcmark-gfm-dev libcmark-gfm-extensions-dev help2man"
group[main]="gnuplot-nox"
# test: the MPI variant (OpenMPI) and the ThreadSanitizer build (clang, libomp with LLVM's Archer);
# script(1), for the progress-line test, is in bsdutils (essential); chromium renders the report page,
# doxygen builds the API reference, jq runs the shell examples, man-db and col (bsdextrautils) read
# the installed man pages; locales: the de_DE sources localedef builds for test_locale; clang-format:
# scripts/format.sh and the ctest format; pmccabe: the ctest complexity (tests/check_complexity.py)
group[test]="gnuplot-nox openmpi-bin libopenmpi-dev clang libomp-dev chromium python3 doxygen help2man jq man-db bsdextrautils locales clang-format pmccabe"
group[mpi]="openmpi-bin libopenmpi-dev"
group[bench]="python3-scipy time" # time: /usr/bin/time in bench/run_hpc.sh
# fuzz (scripts/fuzz.sh, scripts/asan.sh): clang with libFuzzer and the sanitizer runtimes, libomp for
# OpenMP under clang, llvm-symbolizer for readable stacks, ninja-build: build-asan/ (scripts/asan_configure.sh)
# and the test command's build-test/ are Ninja builds; valgrind: scripts/valgrind.sh
group[fuzz]="clang libclang-rt-14-dev libomp-dev llvm ninja-build"
group[valgrind]="valgrind"
# python: the Python package (python/; CPython headers, NumPy and pytest for the tests, matplotlib for
# examples/python; venv, setuptools, pip: `pip install .` and its test); octave: the MEX functions (octave/; mkoctfile from liboctave-dev, octave-cli)
group[python]="python3-dev python3-numpy python3-pytest python3-matplotlib python3-venv python3-setuptools python3-pip"
group[octave]="octave liboctave-dev"
# dem: the real DEM codes that tests/dem/ and the reproduction run as the oracle of impactfit dem
group[dem]="lammps liggghts yade python3"
# engines: the multibody and robotics engines that tests/engines/ runs as the oracle of impactfit engine
# DART 6.12.1 (libdart-dev): Gazebo's default physics engine, run by tests/engines/ like the others
group[engines]="libmujoco-dev libsimbody-dev libode-dev libbullet-dev libdart-dev g++"
# npm-engines: node and npm (the machine's; Debian's nodejs and npm where there are none), then the
# WebAssembly and JavaScript engines pinned by tests/engines/js/package-lock.json (npm ci, below)
group[npm-engines]=""
# wasm: Debian's Emscripten (the WebAssembly build, scripts/wasm.sh), dpkg-dev (apt-get source of GSL,
# NLopt, inih and xxHash for it) and ninja-build (build-wasm/ is a Ninja build)
group[wasm]="emscripten dpkg-dev ninja-build"
# web: the browser test of web/ (tests/web/page_test.js): Chromium, node and npm (the machine's; Debian's
# where there are none), then playwright-core as tests/web/package-lock.json pins it (npm ci, below)
group[web]="chromium"
# slurm: a one-node Slurm cluster for the scheduler test (tests/hpc/)
group[slurm]="slurm-wlm munge"
want=""
npm_engines=0
npm_web=0
for g in "$@"; do
  [ "$g" = npm-engines ] && npm_engines=1
  [ "$g" = web ] && npm_web=1
  [ -n "${group[$g]+x}" ] || { echo "deps.sh: unknown group '$g'" >&2; exit 2; }
  want="$want ${group[$g]}"
done
missing=""
for p in $want; do
  if [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" != "installed" ]; then
    missing="$missing $p"
  fi
done
if [ $((npm_engines + npm_web)) -gt 0 ] && ! command -v npm >/dev/null 2>&1; then
  missing="$missing nodejs npm"
fi
if [ -n "$missing" ]; then
  echo "deps.sh: installing$missing"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
fi
# npm packages: installed exactly as a lockfile pins them, once (a marker holds the lockfile's hash);
# without the registry the tests that need them say SKIP, and this says why
npm_ci() { # npm_ci DIR WHAT
  local js lock_sum
  js="$(dirname "$0")/../$1"
  lock_sum=$(sha256sum "$js/package-lock.json" | cut -d' ' -f1)
  if [ "$(cat "$js/node_modules/.impactfit-lock" 2>/dev/null)" != "$lock_sum" ]; then
    echo "deps.sh: npm ci in $1"
    if (cd "$js" && npm ci --no-audit --no-fund --loglevel=error); then
      echo "$lock_sum" >"$js/node_modules/.impactfit-lock"
    else
      echo "deps.sh: warning: npm ci failed (no registry?): $2 will SKIP" >&2
    fi
  fi
}
[ $npm_engines = 1 ] && npm_ci tests/engines/js "the npm engines' tests"
[ $npm_web = 1 ] && npm_ci tests/web "the browser test of web/ (web_page)"
exit 0
