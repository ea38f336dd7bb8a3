#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The main job: installs what is missing, builds impactfit (Release; with the Python package and the
# Octave MEX functions, docs/PYTHON.md, docs/OCTAVE.md) and reproduces every topic at full size
# (impactfit reproduce, which also runs the installed DEM codes: LAMMPS, LIGGGHTS, YADE):
# reports/REPORT.md and the same as a page reports/index.html, with its figures, claims.json and
# timings.txt; then the page's module web/impactfit-core.js (scripts/wasm.sh update).
# Extra arguments go to `impactfit reproduce` (e.g. --quick, --topic NAME, --out DIR).
set -eu
cd "$(dirname "$0")/.."
bash scripts/deps.sh build main python octave dem engines wasm
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
# the Python package importable from the repository's top directory (python3 puts the current directory
# on sys.path): ./impactfit links to build/python/impactfit; elsewhere use PYTHONPATH=build/python
if [ -d build/python/impactfit ] && { [ -L impactfit ] || [ ! -e impactfit ]; }; then
  ln -sfn build/python/impactfit impactfit
fi
build/src/cli/impactfit reproduce --src . --out reports "$@"
# the page's WebAssembly module (web/impactfit-core.js, docs/WEB.md), rebuilt from this source (its
# dependencies built once per machine from Debian's sources and cached)
bash scripts/wasm.sh update
