#!/usr/bin/env bash
# The main job: installs what is missing, builds impactfit (Release) and reproduces every topic at
# full size (impactfit reproduce): reports/REPORT.md and the same as a page reports/index.html, with its figures,
# claims.json and timings.txt.
# Extra arguments go to `impactfit reproduce` (e.g. --quick, --topic NAME, --out DIR).
set -eu
cd "$(dirname "$0")/.."
bash scripts/deps.sh build main
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
build/src/cli/impactfit reproduce --src . --out reports "$@"
