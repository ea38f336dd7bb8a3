#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# ctests web_answers and web_page: runs a node script of tests/web on the module built into BUILD/web;
# SKIP (77) when node or the module is missing.
# usage: web_node.sh SCRIPT.js BUILD ARGS...
set -eu
script=$1 build=$2
shift 2
if ! command -v node >/dev/null 2>&1; then
  echo "SKIP: node not installed (bash scripts/deps.sh web)"
  exit 77
fi
if [ ! -f "$build/web/impactfit-core.js" ]; then
  echo "SKIP: no module in $build/web (the test web_module builds it; emcc missing?)"
  exit 77
fi
exec node "$script" "$@"
