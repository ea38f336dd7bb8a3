#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ctest web_committed: the module committed in web/ (what a reader who opens web/index.html runs) is
# the one this source builds, byte for byte, and the page's other files are what the build copied.
# usage: web_committed.sh REPO BUILD
set -eu
repo=$1 build=$2
if [ ! -f "$build/web/impactfit-core.js" ]; then
  echo "SKIP: no module in $build/web (the test web_module builds it; emcc missing?)"
  exit 77
fi
if [ -f "$build/web/.committed" ]; then
  echo "SKIP: nothing was built here to compare with (web_module: the WebAssembly dependencies are not built on this machine; bash scripts/wasm.sh deps)"
  exit 77
fi
if ! cmp -s "$repo/web/impactfit-core.js" "$build/web/impactfit-core.js"; then
  echo "FAIL: web/impactfit-core.js is not the module this source builds: bash scripts/wasm.sh update, then commit it"
  exit 1
fi
echo "web_committed: web/impactfit-core.js is the module this source builds ($(wc -c <"$build/web/impactfit-core.js") bytes)"
