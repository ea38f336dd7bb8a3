#!/usr/bin/env bash
# The main job: installs what is missing, builds impactfit (Release) and runs the demonstration.
set -eu
cd "$(dirname "$0")/.."
bash scripts/deps.sh build main
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
bash scripts/demo.sh build/src/cli/impactfit
