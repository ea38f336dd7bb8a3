#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The main job: installs what is missing, builds impactfit (Release; with the Python package and the
# Octave MEX functions, docs/PYTHON.md, docs/OCTAVE.md), installs it into ~/.local (IMPACTFIT_PREFIX; none:
# not at all), so that `impactfit` is on the PATH, and reproduces every topic at full size
# (impactfit reproduce, which also runs the installed DEM codes: LAMMPS, LIGGGHTS, YADE):
# reports/REPORT.md and the same as a page reports/index.html, with its figures, claims.json and
# timings.txt; then the page's module web/impactfit-core.js (scripts/wasm.sh update).
# Extra arguments go to `impactfit reproduce` (e.g. --quick, --topic NAME, --out DIR).
set -eu
cd "$(dirname "$0")/.."
bash scripts/deps.sh build main python octave dem engines wasm
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
# ./impactfit is the program (build/src/cli/impactfit), as the README's commands type it from here
if [ -L impactfit ] || [ ! -e impactfit ]; then
  ln -sfn build/src/cli/impactfit impactfit
fi
# the program on the PATH: the build installed into IMPACTFIT_PREFIX (default ~/.local: the program in
# ~/.local/bin, its man pages, the library with its CMake and pkg-config files, and the Python package in
# the user site-packages of the python3 it was built for); IMPACTFIT_PREFIX=none installs nothing
prefix=${IMPACTFIT_PREFIX:-$HOME/.local}
installed=""
if [ "$prefix" != none ]; then
  if mkdir -p "$prefix" 2>/dev/null && cmake --install build --prefix "$prefix" >build/install.log 2>&1; then
    installed=$prefix
    grep 'impactfit: the Python package' build/install.log | sed 's/^-- //' || true
  else
    echo "main.sh: could not install into $prefix (build/install.log); the program is build/src/cli/impactfit" >&2
  fi
fi
where() {
  echo "main.sh: the program is build/src/cli/impactfit (./impactfit from here)${installed:+, installed as $installed/bin/impactfit}"
  if [ -n "$installed" ] && [ "$(command -v impactfit 2>/dev/null)" != "$installed/bin/impactfit" ]; then
    echo "main.sh: $installed/bin is not first on your PATH: export PATH=\"$installed/bin:\$PATH\" (Debian's ~/.profile adds ~/.local/bin at the next login)"
  fi
}
where
build/src/cli/impactfit reproduce --src . --out reports "$@"
# the page's WebAssembly module (web/impactfit-core.js, docs/WEB.md), rebuilt from this source (its
# dependencies built once per machine from Debian's sources and cached)
bash scripts/wasm.sh update
where
