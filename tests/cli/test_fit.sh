#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CLI checks for `impactfit fit`: the committed generated headers are regenerated from the
# demonstration sweeps through the CLI and compared byte for byte; bad fit files and missing or
# stale data exit 2 with one error line naming file and line; a fit that does not converge exits 1.
set -u
BIN=${1:?usage: test_fit.sh path/to/impactfit SOURCE_DIR}
SRC=${2:?usage: test_fit.sh path/to/impactfit SOURCE_DIR}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
pass=0

# ---- regenerate the committed headers ----
# (no mkdir: sweep --out, fit --header-dir and --tables create the directories they are given)
for s in demo_simulate demo_scaling; do
  "$BIN" sweep "$SRC/sweeps/$s.ini" --out "$TMP/data" --threads 2 >/dev/null || { echo "FAIL: sweep $s"; fail=$((fail + 1)); }
done
for f in demo_copt demo_scaling; do
  if ! "$BIN" fit "$SRC/fits/$f.ini" --data "$TMP/data" --header-dir "$TMP/hdr" --tables "$TMP/tables/new" >"$TMP/out" 2>"$TMP/err"; then
    echo "FAIL: fit $f"; cat "$TMP/err"; fail=$((fail + 1)); continue
  fi
  if cmp -s "$TMP/hdr/$f.h" "$SRC/include/impactfit/generated/$f.h"; then pass=$((pass + 1)); else
    echo "FAIL: regenerated $f.h differs from the committed header:"; diff "$TMP/hdr/$f.h" "$SRC/include/impactfit/generated/$f.h" | head -20
    fail=$((fail + 1))
  fi
done
# the chained tables: per_n has one row per n with alpha, beta and their standard errors
head -1 "$TMP/tables/new/demo_copt_per_n.csv" | grep -q '^n,alpha,beta,alpha_se,beta_se,points,rms,max_abs,max_rel$' ||
  { echo "FAIL: per_n table header"; fail=$((fail + 1)); }
[ "$(grep -c '' "$TMP/tables/new/demo_copt_per_n.csv")" = 6 ] || { echo "FAIL: per_n table rows"; fail=$((fail + 1)); }
# the generated header compiles on its own and names its inputs
printf '#include "%s"\nint main(void) { return impactfit_demo_copt_alpha(1.5) > 0 ? 0 : 1; }\n' "$TMP/hdr/demo_copt.h" >"$TMP/use.c"
cc -std=c11 -Wall -Wextra -Werror "$TMP/use.c" -o "$TMP/use" -lm && "$TMP/use" || { echo "FAIL: header does not compile alone"; fail=$((fail + 1)); }
grep -q 'DO NOT EDIT' "$TMP/hdr/demo_copt.h" && grep -q 'sweep file   ../sweeps/demo_simulate.ini  (xxh64 [0-9a-f]\{16\}' "$TMP/hdr/demo_copt.h" ||
  { echo "FAIL: banner"; fail=$((fail + 1)); }

# ---- errors ----
expect() { # expect CODE 'REGEX' FITFILE [ARGS]
  local want=$1 re=$2
  shift 2
  "$BIN" fit "$@" --header-dir "$TMP/hdr2" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  if [ "$got" != "$want" ] || [ "$(grep -c '' "$TMP/err")" != 1 ] || ! grep -Eq "^impactfit: error: fit: $re" "$TMP/err"; then
    echo "FAIL: fit $* -> exit $got (want $want), stderr:"; cat "$TMP/err"; fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}
mkdir -p "$TMP/hdr2"
cp "$SRC/sweeps/demo_simulate.ini" "$TMP/demo_simulate.ini"
mk() { # mk NAME <<< body (a [fit] header naming the demo sweep is prepended)
  { printf '[fit]\nsweep = demo_simulate.ini\n'; cat; } >"$TMP/$1.ini"
}
mk unknown_key <<'INI'
[stage a]
data = sweep
x = e_out
y = c
form = exp
colour = red
INI
expect 2 '.*/unknown_key.ini:8: unknown key' "$TMP/unknown_key.ini" --data "$TMP/data"
mk unknown_form <<'INI'
[stage a]
data = sweep
x = e_out
y = c
form = spline
INI
expect 2 ".*/unknown_form.ini:7: stage a: unknown form 'spline'" "$TMP/unknown_form.ini" --data "$TMP/data"
mk bad_data <<'INI'
[stage a]
data = b
x = e_out
y = c
form = exp
INI
expect 2 ".*/bad_data.ini:4: stage a: data 'b'" "$TMP/bad_data.ini" --data "$TMP/data"
mk bad_where <<'INI'
[stage a]
data = sweep
where = n ~ 1
x = e_out
y = c
form = exp
INI
expect 2 ".*/bad_where.ini:5: stage a: where" "$TMP/bad_where.ini" --data "$TMP/data"
mk bad_formula <<'INI'
[stage a]
data = sweep
x = e_out
y = c
form = formula
formula = a*exp(b*e_out) + q
constants = a, b
start = 1, 1
INI
expect 2 ".*/bad_formula.ini:8: stage a: formula: a name" "$TMP/bad_formula.ini" --data "$TMP/data"
mk no_start <<'INI'
[stage a]
data = sweep
x = e_out
y = c
form = double_exp
INI
expect 2 ".*/no_start.ini:7: stage a: fit: form double_exp needs start" "$TMP/no_start.ini" --data "$TMP/data"
mk no_column <<'INI'
[stage a]
data = sweep
x = e_in
y = c
form = exp
INI
expect 2 "stage a: no column 'e_in' in the sweep's data" "$TMP/no_column.ini" --data "$TMP/data"
mk noconv <<'INI'
[stage a]
data = sweep
where = n = 1.5
x = e_out
y = c
form = alpha_pow
max_iter = 1
INI
expect 1 "stage a: fit: no convergence in 1 iterations" "$TMP/noconv.ini" --data "$TMP/data"
expect 2 "cannot read .*/nodata/demo_simulate.json" "$TMP/noconv.ini" --data "$TMP/nodata"
# stale data: the sweep file changed after the CSV was written
cp "$TMP/data/demo_simulate.csv" "$TMP/data/demo_simulate.json" "$TMP/hdr2/"
echo '; edited' >>"$TMP/demo_simulate.ini"
expect 2 ".*demo_simulate.csv was not produced from the current" "$TMP/noconv.ini" --data "$TMP/hdr2"
: >"$TMP/plainfile"
"$BIN" fit "$SRC/fits/demo_scaling.ini" --data "$TMP/data" --header-dir "$TMP/plainfile/h" --quiet >/dev/null 2>"$TMP/err"
[ $? = 2 ] && [ "$(cat "$TMP/err")" = "impactfit: error: cannot create $TMP/plainfile/h: Not a directory" ] &&
  pass=$((pass + 1)) || { echo "FAIL: --header-dir under a file:"; cat "$TMP/err"; fail=$((fail + 1)); }
expect 2 "expected one fit file" 
expect 2 "cannot read" "$TMP/none.ini"
[ -z "$(ls "$TMP/hdr2"/*.h 2>/dev/null)" ] || { echo "FAIL: a failed fit wrote a header"; fail=$((fail + 1)); }
"$BIN" fit --help | grep -q 'form = alpha_pow' || { echo "FAIL: fit --help"; fail=$((fail + 1)); }

# ---- the cluster pipeline of README, as written (issue 28 finding 3) ----
# shards are 0-based; `fit --data` on the shards' directory says to merge them; `merge DIR` writes
# next to the shards, byte-identical to one run; `fit` writes its header next to the data by default
# (never into the checkout), and messages name paths tidily (no "fits/../sweeps", no "out//")
cp -r "$SRC/sweeps" "$SRC/fits" "$TMP/" # a scratch copy: nothing is written into the checkout
for i in 0 1; do
  (cd "$TMP" && "$BIN" sweep sweeps/demo_simulate.ini --out sh/ --shard $i/2 --quiet >"$TMP/out") ||
    { echo "FAIL: sweep --shard $i/2"; fail=$((fail + 1)); }
done
grep -q -- '-> sh/demo_simulate.shard-1-of-2.csv' "$TMP/out" && pass=$((pass + 1)) ||
  { echo "FAIL: the sweep's path: $(cat "$TMP/out")"; fail=$((fail + 1)); }
(cd "$TMP" && "$BIN" sweep sweeps/demo_simulate.ini --out sh/ --shard 2/2 >/dev/null 2>"$TMP/err")
[ $? = 2 ] && grep -q "0 <= I < N" "$TMP/err" && pass=$((pass + 1)) || { echo "FAIL: shard 2/2: $(cat "$TMP/err")"; fail=$((fail + 1)); }
(cd "$TMP" && "$BIN" fit fits/demo_copt.ini --data sh/ >"$TMP/out" 2>"$TMP/err")
[ $? = 2 ] && grep -q "^impactfit: error: fit: cannot read sh/demo_simulate.json: sh/ holds the shards of this sweep: merge them first with 'impactfit merge sh/'$" "$TMP/err" &&
  pass=$((pass + 1)) || { echo "FAIL: fit on unmerged shards: $(cat "$TMP/err")"; fail=$((fail + 1)); }
(cd "$TMP" && "$BIN" fit fits/demo_copt.ini --data empty/ >"$TMP/out" 2>"$TMP/err")
grep -q "run 'impactfit sweep sweeps/demo_simulate.ini --out empty/' first" "$TMP/err" && pass=$((pass + 1)) ||
  { echo "FAIL: the sweep's path in the message: $(cat "$TMP/err")"; fail=$((fail + 1)); }
(cd "$TMP" && "$BIN" merge sh/ >"$TMP/out" 2>"$TMP/err") && cmp -s "$TMP/sh/demo_simulate.csv" "$TMP/data/demo_simulate.csv" &&
  grep -q -- '-> sh/demo_simulate.csv$' "$TMP/out" && pass=$((pass + 1)) ||
  { echo "FAIL: merge sh/ next to the shards: $(cat "$TMP/out" "$TMP/err")"; fail=$((fail + 1)); }
"$BIN" merge "$TMP/sh" "$TMP/data" >/dev/null 2>"$TMP/err"
[ $? = 2 ] && grep -q "give --out DIR" "$TMP/err" && pass=$((pass + 1)) || { echo "FAIL: merge of two directories without --out"; fail=$((fail + 1)); }
(cd "$TMP" && "$BIN" fit fits/demo_copt.ini --data sh/ --quiet >"$TMP/out" 2>"$TMP/err") && [ -f "$TMP/sh/demo_copt.h" ] &&
  [ ! -e "$TMP/include" ] && cmp -s "$TMP/sh/demo_copt.h" "$SRC/include/impactfit/generated/demo_copt.h" && pass=$((pass + 1)) ||
  { echo "FAIL: fit writes its header next to the data: $(cat "$TMP/err")"; fail=$((fail + 1)); }

echo "test_fit.sh: $pass table cases passed, $fail failures"
[ "$fail" = 0 ]
