#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CLI checks for `impactfit sweep`: bad definition files exit 2 with one "impactfit: error: FILE:LINE:"
# line and write nothing; a sweep with failed points exits 1 and still writes every row; the CSV is
# byte-identical for 1 and 2 threads; the JSON sidecar names the definition's hash.
set -u
BIN=${1:?usage: test_sweep.sh path/to/impactfit}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
pass=0

bad() { # bad NAME 'REGEX on the error line' <<< definition
  local name=$1 want=$2
  cat >"$TMP/$name.ini"
  "$BIN" sweep "$TMP/$name.ini" --out "$TMP" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  if [ "$got" != 2 ] || [ "$(grep -c '' "$TMP/err")" != 1 ] || ! grep -Eq "^impactfit: error: sweep: $want" "$TMP/err" ||
    [ -s "$TMP/out" ] || [ -e "$TMP/$name.csv" ]; then
    echo "FAIL: bad definition $name -> exit $got, stderr:"; cat "$TMP/err"; fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}

bad unknown_key ".*/unknown_key.ini:3: unknown key 'colour'" <<'INI'
[sweep]
problem = simulate
colour = red
[axes]
n = list 1
INI
bad missing_axes ".*/missing_axes.ini: no axes" <<'INI'
[sweep]
problem = simulate
[fixed]
n = 1.5
INI
bad count0 ".*/count0.ini:4: n: count must be" <<'INI'
[sweep]
problem = simulate
[axes]
n = linear 1, 2, 0
INI
bad logzero ".*/logzero.ini:5: c: a log range" <<'INI'
[sweep]
problem = simulate
[axes]
n = list 1.5
c = log 0, 1, 4
INI
bad nonnumber ".*/nonnumber.ini:4: n: expected a number, got 'one'" <<'INI'
[sweep]
problem = simulate
[axes]
n = list one, 2
INI
bad duplicate ".*/duplicate.ini:5: duplicate axis n \(first on line 4\)" <<'INI'
[sweep]
problem = simulate
[axes]
n = list 1
n = list 2
INI
bad problem ".*/problem.ini:2: unknown problem 'copt2'" <<'INI'
[sweep]
problem = copt2
[axes]
n = list 1
INI
bad range ".*/range.ini:4: v = -1 is out of range" <<'INI'
[sweep]
problem = simulate
[axes]
v = list 1, -1
INI

# options and files
for args in "" "$TMP/none.ini" "$TMP/count0.ini --threads 0" "a.ini b.ini" "x.ini --bogus"; do
  # shellcheck disable=SC2086
  "$BIN" sweep $args >"$TMP/out" 2>"$TMP/err"
  if [ $? != 2 ] || [ "$(grep -c '' "$TMP/err")" != 1 ]; then echo "FAIL: sweep $args"; cat "$TMP/err"; fail=$((fail + 1)); else pass=$((pass + 1)); fi
done

# a sweep with failed points: exit 1, one error line, every row written
cat >"$TMP/mixed.ini" <<'INI'
[sweep]
problem = simulate
outputs = e_out, t_contact
[fixed]
transition = A
[axes]
n = list 1, 1.5
c = linear 0.5, 3, 6
INI
"$BIN" sweep "$TMP/mixed.ini" --out "$TMP" --threads 2 >"$TMP/out" 2>"$TMP/err"
rc=$?
[ $rc = 1 ] && [ "$(grep -c '' "$TMP/err")" = 1 ] && grep -q '^impactfit: error: sweep: [0-9]* of 12 points failed' "$TMP/err" ||
  { echo "FAIL: mixed sweep exit $rc"; cat "$TMP/err"; fail=$((fail + 1)); }
[ "$(grep -c '' "$TMP/mixed.csv")" = 13 ] || { echo "FAIL: mixed.csv rows"; fail=$((fail + 1)); }
grep -q ',,,ENOSEP,' "$TMP/mixed.csv" || { echo "FAIL: no ENOSEP row"; fail=$((fail + 1)); }
nf=$(grep -c ',ENOSEP,' "$TMP/mixed.csv")
grep -q "\"failed\": $nf," "$TMP/mixed.json" || { echo "FAIL: json failed count"; fail=$((fail + 1)); }
[ "$(grep -c '"status": "ENOSEP"' "$TMP/mixed.json")" = "$nf" ] || { echo "FAIL: json failures list"; fail=$((fail + 1)); }

# deterministic: 1 vs 2 threads, and a small block size
cat >"$TMP/det.ini" <<'INI'
[sweep]
problem = simulate
[fixed]
m = 0.5
[axes]
n = linear 1, 2, 4
c = log 0.01, 3, 9
INI
# t1 and t2 do not exist: --out creates them (and their parents); a file in the way is an input error
: >"$TMP/plainfile"
"$BIN" sweep "$TMP/det.ini" --out "$TMP/plainfile/x" >/dev/null 2>"$TMP/err"
[ $? = 2 ] && [ "$(cat "$TMP/err")" = "impactfit: error: cannot create $TMP/plainfile/x: Not a directory" ] &&
  pass=$((pass + 1)) || { echo "FAIL: --out under a file:"; cat "$TMP/err"; fail=$((fail + 1)); }
"$BIN" sweep "$TMP/det.ini" --out "$TMP/t1" --threads 1 >/dev/null &&
  "$BIN" sweep "$TMP/det.ini" --out "$TMP/t2/deeper" --threads 2 --block 5 >/dev/null ||
  { echo "FAIL: det sweep"; fail=$((fail + 1)); }
cmp -s "$TMP/t1/det.csv" "$TMP/t2/deeper/det.csv" && pass=$((pass + 1)) || { echo "FAIL: CSV differs for 1 and 2 threads"; fail=$((fail + 1)); }
hash=$(grep -o '"definition_xxh64": "[0-9a-f]*"' "$TMP/t1/det.json" | grep -o '[0-9a-f]\{16\}')
[ ${#hash} = 16 ] || { echo "FAIL: json hash"; fail=$((fail + 1)); }
grep -q '"threads": 2,' "$TMP/t2/deeper/det.json" || { echo "FAIL: json threads"; fail=$((fail + 1)); }
grep -q '"tolerances": {"t_max": 10000, "rtol": 1e-13}' "$TMP/t1/det.json" || { echo "FAIL: json tolerances"; fail=$((fail + 1)); }
"$BIN" sweep --help | grep -q 'problems:' || { echo "FAIL: help lists problems"; fail=$((fail + 1)); }
ls "$TMP" "$TMP/t1" "$TMP/t2" | grep -q '\.tmp\.' && { echo "FAIL: temporary files left behind"; fail=$((fail + 1)); }

echo "test_sweep.sh: $pass table cases passed, $fail failures"
[ "$fail" = 0 ]
