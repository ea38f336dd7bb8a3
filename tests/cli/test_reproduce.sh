#!/usr/bin/env bash
# `impactfit reproduce --quick` writes a report with figures; `impactfit check` fails on a changed
# expectation (a tampered copy of tests/published); a full run rewrites a tampered generated header,
# a quick run only reports it.
set -u
BIN=${1:?usage: test_reproduce.sh path/to/impactfit SOURCE_DIR}
SRC=${2:?}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
"$BIN" reproduce --quick --out "$TMP/rep" --src "$SRC" >"$TMP/out" 2>"$TMP/err" || { echo "FAIL: reproduce --quick"; cat "$TMP/err"; fail=$((fail + 1)); }
[ -s "$TMP/rep/REPORT.md" ] || { echo "FAIL: no REPORT.md"; fail=$((fail + 1)); }
n_svg=$(find "$TMP/rep" -name '*.svg' -size +1k | wc -l)
n_png=$(find "$TMP/rep" -name '*.png' -size +1k | wc -l)
[ "$n_svg" -ge 1 ] && [ "$n_png" -ge 1 ] || { echo "FAIL: figures missing ($n_svg svg, $n_png png)"; fail=$((fail + 1)); }
grep -q '^## Published claims' "$TMP/rep/REPORT.md" || { echo "FAIL: no claims table"; fail=$((fail + 1)); }
grep -q 'could not be drawn' "$TMP/rep/REPORT.md" && { echo "FAIL: a figure could not be drawn"; fail=$((fail + 1)); }
grep -q 'wall time' "$TMP/out" || { echo "FAIL: wall time not printed"; fail=$((fail + 1)); }
# check against a tampered copy of the expectations: must fail with exit 1
mkdir -p "$TMP/src/tests/published" "$TMP/src/include/impactfit"
cp -r "$SRC/tests/published/." "$TMP/src/tests/published/"
# topics read their definitions and committed headers from the source tree
cp -r "$SRC/sweeps" "$SRC/fits" "$TMP/src/"
cp -r "$SRC/include/impactfit/generated" "$TMP/src/include/impactfit/"
f=$(ls "$TMP/src/tests/published/"*.ini | head -1)
awk 'BEGIN { done = 0 } /^measured = / && !done { print "measured = 12345.678"; done = 1; next } { print }' "$f" >"$f.new" && mv "$f.new" "$f"
topic=$(basename "$f" .ini)
"$BIN" check --src "$TMP/src" --topic "$topic" >/dev/null 2>"$TMP/err"
[ $? = 1 ] || { echo "FAIL: check did not fail on a changed expectation"; fail=$((fail + 1)); }
grep -q '^impactfit: error: check' "$TMP/err" || { echo "FAIL: check's error line"; fail=$((fail + 1)); }
"$BIN" check --src "$TMP/nowhere" --topic "$topic" >/dev/null 2>"$TMP/err"
[ $? = 2 ] || { echo "FAIL: check without expectations must exit 2"; fail=$((fail + 1)); }
# regenerated headers: a quick run reports a tampered committed header as a missed target and leaves
# it alone; a full run (ramaswamy: ~8 s) rewrites it to what its sweep and fit make
h="$TMP/src/include/impactfit/generated/ramaswamy_eps.h"
echo '/* tampered */' >>"$h"
"$BIN" reproduce --quick --topic ramaswamy --src "$TMP/src" --out "$TMP/rq" --quiet >/dev/null 2>&1
grep -q 'ramaswamy_eps.h is what the code regenerates | \*\*no\*\* | regenerated: DIFFERS' "$TMP/rq/REPORT.md" ||
  { echo "FAIL: quick run does not report the tampered header"; fail=$((fail + 1)); }
grep -q 'tampered' "$h" || { echo "FAIL: quick run rewrote a committed header"; fail=$((fail + 1)); }
"$BIN" reproduce --topic ramaswamy --src "$TMP/src" --out "$TMP/rf" >/dev/null 2>"$TMP/err"
cmp -s "$h" "$SRC/include/impactfit/generated/ramaswamy_eps.h" || { echo "FAIL: full run did not regenerate the header"; fail=$((fail + 1)); }
grep -q 'ramaswamy_eps.h changed: rewrote' "$TMP/err" || { echo "FAIL: full run did not say it rewrote the header"; fail=$((fail + 1)); }
cmp -s "$TMP/src/include/impactfit/generated/ramaswamy_dtau.h" "$SRC/include/impactfit/generated/ramaswamy_dtau.h" &&
  grep -q 'ramaswamy_dtau.h is what the code regenerates | yes | regenerated: byte-identical' "$TMP/rf/REPORT.md" ||
  { echo "FAIL: untouched header"; fail=$((fail + 1)); }
"$BIN" reproduce --topic nosuch >/dev/null 2>&1
[ $? = 2 ] || { echo "FAIL: unknown topic must exit 2"; fail=$((fail + 1)); }
echo "test_reproduce.sh: $fail failures"
[ "$fail" = 0 ]
