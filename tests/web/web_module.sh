#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ctest web_module: builds the WebAssembly module and the page into BUILD/web (scripts/wasm.sh build;
# the dependencies come from the cache, built there once per machine by scripts/wasm.sh deps) and
# checks its size: under 1 MB gzipped (docs/WEB.md).
# usage: web_module.sh REPO BUILD    exit 77 (SKIP) without Emscripten (bash scripts/deps.sh wasm)
set -eu
repo=$1 build=$2
if ! command -v emcc >/dev/null 2>&1; then
  echo "SKIP: emcc not installed (bash scripts/deps.sh wasm)"
  exit 77
fi
t0=$(date +%s)
rm -f "$build/web/.committed"
if ! bash "$repo/scripts/wasm.sh" check-deps; then
  # a fresh machine: the dependencies are the main job's to build (about 5 CPU minutes, once); the tests
  # run on the committed module (the page a reader opens), and web_committed says SKIP
  echo "web_module: the WebAssembly dependencies are not built on this machine (bash scripts/wasm.sh deps," \
    "or the main job): the tests use the committed web/ instead of a fresh build"
  mkdir -p "$build"
  rm -rf "$build/web"
  cp -r "$repo/web" "$build/web"
  touch "$build/web/.committed"
else
  IMPACTFIT_WASM_BUILD=$build bash "$repo/scripts/wasm.sh" build
fi
m="$build/web/impactfit-core.js"
raw=$(wc -c <"$m")
gz=$(gzip -9 -c "$m" | wc -c)
echo "web_module: $m: $raw bytes, $gz gzipped ($(($(date +%s) - t0)) s)"
if [ "$gz" -ge 1000000 ]; then
  echo "FAIL: the module is $gz bytes gzipped (at most 1 MB)"
  exit 1
fi
