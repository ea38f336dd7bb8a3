#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `impactfit reproduce --quick` writes a report with figures; `impactfit check` fails on a changed
# expectation (a tampered copy of tests/published); a full run rewrites a tampered generated header,
# a quick run only reports it; the progress line on a terminal. (SIGINT and SIGTERM:
# test_reproduce_signals.sh.)
# usage: test_reproduce.sh path/to/impactfit SOURCE_DIR [QUICK_DIR]
#   QUICK_DIR: the output of the ctest fixture reproduce_quick (reproduce_quick.sh: QUICK_DIR/rep,
#   QUICK_DIR/out, QUICK_DIR/err); without it the quick reproduction is run here.
set -u
BIN=${1:?usage: test_reproduce.sh path/to/impactfit SOURCE_DIR [QUICK_DIR]}
SRC=${2:?}
QUICK=${3:-}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
if [ -n "$QUICK" ] && [ -d "$QUICK/rep" ]; then
  cp -r "$QUICK/rep" "$TMP/rep" && cp "$QUICK/out" "$QUICK/err" "$TMP/" || { echo "FAIL: cannot copy $QUICK"; exit 1; }
else
  "$BIN" reproduce --quick --out "$TMP/rep" --src "$SRC" >"$TMP/out" 2>"$TMP/err" || { echo "FAIL: reproduce --quick"; cat "$TMP/err"; fail=$((fail + 1)); }
fi
[ -s "$TMP/rep/REPORT.md" ] || { echo "FAIL: no REPORT.md"; fail=$((fail + 1)); }
n_svg=$(find "$TMP/rep" -name '*.svg' -size +1k | wc -l)
n_png=$(find "$TMP/rep" -name '*.png' -size +1k | wc -l)
[ "$n_svg" -ge 1 ] && [ "$n_png" -ge 1 ] || { echo "FAIL: figures missing ($n_svg svg, $n_png png)"; fail=$((fail + 1)); }
grep -q '^## Published claims' "$TMP/rep/REPORT.md" || { echo "FAIL: no claims table"; fail=$((fail + 1)); }
grep -q 'could not be drawn' "$TMP/rep/REPORT.md" && { echo "FAIL: a figure could not be drawn"; fail=$((fail + 1)); }
grep -q 'wall time' "$TMP/out" || { echo "FAIL: wall time not printed"; fail=$((fail + 1)); }
# the page: figures beside it, a summary and contents first, papers linked to their DOIs
[ -s "$TMP/rep/index.html" ] || { echo "FAIL: no index.html"; fail=$((fail + 1)); }
grep -q '<h2>Summary of findings</h2>' "$TMP/rep/index.html" && grep -q '<h2>Contents</h2>' "$TMP/rep/index.html" &&
  grep -q 'href="https://doi.org/10.1007/s11044-020-09746-y"' "$TMP/rep/index.html" ||
  { echo "FAIL: index.html lacks the summary, contents or DOI links"; fail=$((fail + 1)); }
[ "$(sed -n 's/^## //p' "$TMP/rep/REPORT.md" | sed -n 2p)" = "Contents" ] ||
  { echo "FAIL: REPORT.md does not open with the summary and the contents"; fail=$((fail + 1)); }
[ -s "$TMP/rep/timings.txt" ] && ! grep -qiE 'wall time [0-9]' "$TMP/rep/REPORT.md" ||
  { echo "FAIL: timings must be in timings.txt, not in REPORT.md"; fail=$((fail + 1)); }
# two runs give byte-identical reports (the timings file aside)
"$BIN" reproduce --quick --out "$TMP/rep2" --src "$SRC" --quiet >/dev/null 2>&1 || { echo "FAIL: second reproduce"; fail=$((fail + 1)); }
for f in REPORT.md index.html claims.json; do
  cmp -s "$TMP/rep/$f" "$TMP/rep2/$f" || { echo "FAIL: $f differs between two runs"; fail=$((fail + 1)); }
done
# the temporary folder goes on every exit path: success, an error, SIGINT, SIGTERM
ls -a "$TMP/rep" "$TMP/rep2" | grep -q '^\.impactfit-tmp' && { echo "FAIL: temporary folder left after success"; fail=$((fail + 1)); }
mkdir -p "$TMP/bad"
"$BIN" reproduce --quick --src "$TMP/nowhere" --out "$TMP/bad" --quiet >/dev/null 2>&1
[ $? = 2 ] || { echo "FAIL: reproduce with a missing source tree must exit 2"; fail=$((fail + 1)); }
ls -a "$TMP/bad" | grep -q '^\.impactfit-tmp' && { echo "FAIL: temporary folder left after an error"; fail=$((fail + 1)); }
# SIGINT and SIGTERM: test_reproduce_signals.sh
# the progress line: on a terminal (script(1)), what a topic does and how far it is (done of total,
# time left); IMPACTFIT_TEST_PROGRESS_INTERVAL=0 draws at every update (not every 0.2 s), so the lines
# are there however fast the machine is. In a pipe or a log: none (the quick run's stderr above).
grep -q $'\r' "$TMP/err" && { echo "FAIL: progress line drawn although stderr is a file"; fail=$((fail + 1)); }
if command -v script >/dev/null; then
  IMPACTFIT_TEST_PROGRESS_INTERVAL=0 script -qec "'$BIN' reproduce --quick --topic copt --src '$SRC' --out '$TMP/tty'" \
    /dev/null >"$TMP/tty.txt" 2>&1 || { echo "FAIL: reproduce --topic copt on a terminal"; fail=$((fail + 1)); }
  for re in '\[copt 1/1\] sweep poursina2020_mass: [0-9]+/1600 points \([0-9.]+%\)' \
    '\[copt 1/1\] simulating the closed forms: [0-9]+/[0-9]+ points \([0-9.]+%\).*, ETA [0-9]+:[0-9][0-9]' \
    '\[copt 1/1\] simulating the random systems: [0-9]+/60 systems'; do
    tr '\r' '\n' <"$TMP/tty.txt" | grep -Eaq "^$re" || { echo "FAIL: no progress line /$re/ on a terminal"; fail=$((fail + 1)); }
  done
  tr '\r' '\n' <"$TMP/tty.txt" | sed 's/\x1b\[K//g' | awk '/^(\[|reproduce: )/ && length > 79 { bad = 1 } END { exit !bad }' &&
    { echo "FAIL: a progress line wider than the 80 columns of script's terminal"; fail=$((fail + 1)); }
fi
# check against a tampered copy of the expectations: must fail with exit 1
mkdir -p "$TMP/src/tests/published" "$TMP/src/include/impactfit"
cp -r "$SRC/tests/published/." "$TMP/src/tests/published/"
# topics read their definitions and committed headers from the source tree
cp -r "$SRC/sweeps" "$SRC/fits" "$TMP/src/"
cp -r "$SRC/include/impactfit/generated" "$TMP/src/include/impactfit/"
f=$(grep -l '^measured = ' "$TMP/src/tests/published/"*.ini | head -1)   # a topic with claims
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
