#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `impactfit check --src DIR` compares the generated headers compiled into the program with the
# ones committed in DIR: a copy of the source tree passes, the same copy with one committed header
# changed (a stale build, as after `git pull` without rebuilding) fails with exit 1 naming it.
# usage: test_check_stale.sh IMPACTFIT SOURCE_DIR
set -u
BIN=${1:?usage: test_check_stale.sh IMPACTFIT SOURCE_DIR}
SRC=${2:?}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
mkdir -p "$TMP/src/tests" "$TMP/src/include/impactfit"
cp -r "$SRC/tests/published" "$TMP/src/tests/"
cp -r "$SRC/include/impactfit/generated" "$TMP/src/include/impactfit/"
cp -r "$SRC/sweeps" "$SRC/fits" "$TMP/src/"

"$BIN" check --topic dem --src "$TMP/src" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 0 ] && grep -q 'dem_damping.h compiled into this program = the committed one .*met .*identical' "$TMP/out" && ok ||
  bad "the committed headers: rc $rc, $(grep compiled "$TMP/out")"

# one digit of one constant changed in the committed header (pi's last digit): the build is stale
H="$TMP/src/include/impactfit/generated/dem_damping.h"
cp "$H" "$TMP/orig.h"
sed -i 's/3\.14159265358979323846 \* 3\.14159265358979323846/3.14159265358979323847 * 3.14159265358979323846/' "$H"
if cmp -s "$H" "$TMP/orig.h"; then
  bad "the test did not change the header"
fi
"$BIN" check --topic dem --src "$TMP/src" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 1 ] && grep -q "MISSED .*dem_damping.h differs from the copy built into this program: a stale build" "$TMP/out" && ok ||
  bad "a changed committed header: rc $rc, $(grep compiled "$TMP/out")"
grep -q '^impactfit: error: check: ' "$TMP/err" && ok || bad "no error line: $(cat "$TMP/err")"

# a missing committed header also fails
rm "$H"
"$BIN" check --topic dem --src "$TMP/src" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 1 ] && grep -q "MISSED .*cannot read .*dem_damping.h" "$TMP/out" && ok || bad "a missing header: rc $rc"

# --json carries the same target
cp "$TMP/orig.h" "$H"
echo '/* a comment added after the build */' >>"$H"
"$BIN" check --topic dem --src "$TMP/src" --json >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 1 ] && grep -q '"target":"dem_damping.h compiled into this program = the committed one","met":"no"' "$TMP/out" && ok ||
  bad "--json: rc $rc"

echo "test_check_stale.sh: $pass passed, $fail failed"
[ "$fail" = 0 ]
