#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The ctest fixture reproduce_quick: one `impactfit reproduce --quick` into DIR/rep (its stdout and
# stderr in DIR/out and DIR/err), which cli_reproduce and report_page read, so that the suite runs the
# quick reproduction once for both (cli_reproduce runs it a second time, for the byte-identical check).
# usage: reproduce_quick.sh path/to/impactfit SOURCE_DIR DIR
set -u
BIN=${1:?usage: reproduce_quick.sh path/to/impactfit SOURCE_DIR DIR}
SRC=${2:?}
DIR=${3:?}
rm -rf "$DIR"
mkdir -p "$DIR"
"$BIN" reproduce --quick --out "$DIR/rep" --src "$SRC" >"$DIR/out" 2>"$DIR/err"
rc=$?
[ $rc = 0 ] || { echo "FAIL: reproduce --quick: exit $rc"; cat "$DIR/err"; }
exit $rc
