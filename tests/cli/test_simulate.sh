#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CLI checks for `impactfit simulate` and the program's entry point: a table of bad inputs (each must
# exit 2 with exactly one "impactfit: error:" line on stderr and nothing on stdout), a numerical
# failure (exit 1), and the documented outputs (--help, --version, --json keys, --trace file).
set -u
BIN=${1:?usage: test_simulate.sh path/to/impactfit}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
pass=0

MULTI=0 # 1: several error lines allowed (one per failed grid point)
expect() { # expect CODE ARGS...
  local want=$1
  shift
  "$BIN" "$@" >"$TMP/out" 2>"$TMP/err.all"
  local got=$?
  # the note that values are scaled (no --k, --mass, --v) is not an error line
  grep -v "^impactfit: note: " "$TMP/err.all" >"$TMP/err"
  local nerr
  nerr=$(grep -c '' "$TMP/err")
  if [ "$got" != "$want" ]; then
    echo "FAIL: impactfit $* -> exit $got, want $want"; cat "$TMP/err"; fail=$((fail + 1)); return
  fi
  if [ "$want" != 0 ]; then
    if { [ "$MULTI" = 0 ] && [ "$nerr" != 1 ]; } || grep -qv '^impactfit: error: ' "$TMP/err" || [ "$nerr" = 0 ]; then
      echo "FAIL: impactfit $* -> stderr is not one 'impactfit: error:' line:"; cat "$TMP/err"
      fail=$((fail + 1)); return
    fi
    if [ "$want" = 2 ] && [ -s "$TMP/out" ]; then
      echo "FAIL: impactfit $* -> printed on stdout despite invalid input"; fail=$((fail + 1)); return
    fi
  fi
  pass=$((pass + 1))
}

# ---- invalid input: exit 2 ----
expect 2
expect 2 nosuchcommand
expect 2 simulate
expect 2 simulate --n 1.5
expect 2 simulate --c 1
expect 2 simulate --n abc --c 1
expect 2 simulate --n nan --c 1
expect 2 simulate --n NaN --c 1
expect 2 simulate --n inf --c 1
expect 2 simulate --n -inf --c 1
expect 2 simulate --n -1 --c 1
expect 2 simulate --n 0 --c 1
expect 2 simulate --n 1e999 --c 1
expect 2 simulate --n 1e-999 --c 1
expect 2 simulate --n 1.5x --c 1
expect 2 simulate --n '' --c 1
expect 2 simulate --n ' 1.5' --c 1
expect 2 simulate --n 1.5 --c -1
expect 2 simulate --n 1.5 --c 1 --m -0.5
expect 2 simulate --n 1.5 --c 1 --k 0
expect 2 simulate --n 1.5 --c 1 --k -3
expect 2 simulate --n 1.5 --c 1 --mass -1
expect 2 simulate --n 1.5 --c 1 --v 0
expect 2 simulate --n 1.5 --c 1 --v -2
expect 2 simulate --n 1.5 --c 1 --transition E
expect 2 simulate --n 1.5 --c 1 --transition ''
expect 2 simulate --n 1.5 --c 1 --bogus 3
expect 2 simulate --n 1.5 --c 1 --n 2
expect 2 simulate --n 1.5 --c
expect 2 simulate --n 1.5 --c 1 --contacts 3
expect 2 simulate --n 1.5 --c 1 --contacts 0 --accel 1
expect 2 simulate --n 1.5 --c 1 --accel -1
expect 2 simulate --n 1.5 --c 1 --t-max 0
expect 2 simulate --n 1,,2 --c 1
expect 2 simulate --n 1, --c 1
expect 2 simulate --n 1:2 --c 1
expect 2 simulate --n 1:2:0 --c 1
expect 2 simulate --n 1:2:x --c 1
expect 2 simulate --n 1:2:3:4 --c 1
expect 2 simulate --n 1,2:3:4 --c 1
expect 2 simulate --n 1,-1 --c 1
expect 2 simulate --n 1.5 --c 1 --json --csv
expect 2 simulate --n 1.5 --c 1 --trace-points 10
expect 2 simulate --n 1.5 --c 1 --json=1
expect 2 simulate --n 1.5 --c 1 -x
expect 2 simulate --n 1.5 --c 1 stray
expect 2 simulate --n 1.5 --c 1e300 --mass 1e-300 --k 1e-300 --v 1e-300
expect 2 simulate --n 1,2 --c 1 --trace "$TMP/t.csv"
# a point the model does not define (B with m = n and c v > k) is invalid input: exit 2, alone and
# inside a grid, where the valid points' rows are still printed and the invalid one's says EINVAL
expect 2 simulate --n 1.5 --m 1.5 --c 2 --k 1 --mass 1 --v 1 --transition B
"$BIN" simulate --n 1.5 --m 1.5 --c 0.5,2 --k 1 --mass 1 --v 1 --transition B --csv >"$TMP/out" 2>"$TMP/err"
got=$?
if [ "$got" = 2 ] && [ "$(grep -c '' "$TMP/err")" = 1 ] && grep -q 'transition B is undefined for m = n' "$TMP/err" &&
  grep -q ',OK,' "$TMP/out" && grep -q 'EINVAL' "$TMP/out"; then
  pass=$((pass + 1))
else
  echo "FAIL: simulate B, m = n, c = 0.5,2 -> exit $got, want 2 with one row each:"; cat "$TMP/out" "$TMP/err"
  fail=$((fail + 1))
fi

# ---- numerical failure: exit 1 ----
expect 1 simulate --n 1.5 --c 50 --transition A --t-max 100
expect 1 simulate --n 1 --c 3 --transition A
MULTI=1 expect 1 simulate --n 1,1.5 --c 50 --transition A --t-max 100
MULTI=0

# ---- success ----
expect 0 --help
expect 0 --version
expect 0 simulate --help
expect 0 simulate --n 1.5 --c 0.5
expect 0 simulate --n 1,1.5 --c 0:1:3 --csv

"$BIN" --version | grep -Eq '^impactfit [0-9]+\.[0-9]+\.[0-9]+$' || { echo "FAIL: --version format"; fail=$((fail + 1)); }
out=$("$BIN" simulate --n 1.5 --c 0.5 --json)
lines=$(printf '%s\n' "$out" | grep -c '')
[ "$lines" = 1 ] || { echo "FAIL: --json printed $lines lines"; fail=$((fail + 1)); }
for key in e_out t_contact f_max delta_max delta_sep energy_error rhs_evals; do
  printf '%s' "$out" | grep -q "\"$key\":[-0-9]" || { echo "FAIL: --json lacks $key: $out"; fail=$((fail + 1)); }
done
# Kelvin-Voigt, xi = 0.25: e = exp(-2 xi acos(xi)/sqrt(1 - xi^2)) = 0.50627655251862...
e=$("$BIN" simulate --n 1 --c 0.5 --json | sed 's/.*"e_out":\([^,]*\),.*/\1/')
awk -v e="$e" 'BEGIN { x = 0.25; want = exp(-2 * x * atan2(sqrt(1 - x * x), x) / sqrt(1 - x * x));
  d = e - want; if (d < 0) d = -d; exit !(d < 1e-12) }' || { echo "FAIL: KV e_out $e"; fail=$((fail + 1)); }
# a trace is written whole; a failing run leaves no file behind
"$BIN" simulate --n 1.5 --c 0.5 --trace "$TMP/ok.csv" --trace-points 11 >/dev/null
[ "$(grep -c '' "$TMP/ok.csv")" = 12 ] || { echo "FAIL: trace rows"; fail=$((fail + 1)); }
head -1 "$TMP/ok.csv" | grep -q '^t,delta,delta_dot,force,element,in_contact$' || { echo "FAIL: trace header"; fail=$((fail + 1)); }
"$BIN" simulate --n 1.5 --c 50 --transition A --t-max 100 --trace "$TMP/bad.csv" 2>/dev/null
[ ! -e "$TMP/bad.csv" ] || { echo "FAIL: failing run left a trace file"; fail=$((fail + 1)); }
ls "$TMP" | grep -q '\.tmp\.' && { echo "FAIL: temporary files left behind"; fail=$((fail + 1)); }

# --law approach-damper (law.h): the damper acts only while approaching. n = 1, m = 0, c = 2 xi:
# a damped quarter cycle, then an undamped one: e = exp(-xi acos(xi)/sqrt(1 - xi^2)) under A and C
for tr in A C; do
  e=$("$BIN" simulate --law approach-damper --n 1 --m 0 --c 0.6 --transition $tr --json | sed 's/.*"e_out":\([^,]*\),.*/\1/')
  awk -v e="$e" 'BEGIN { x = 0.3; want = exp(-x * atan2(sqrt(1 - x * x), x) / sqrt(1 - x * x));
    d = e - want; if (d < 0) d = -d; exit !(d < 1e-10) }' || { echo "FAIL: approach-damper e_out $e ($tr)"; fail=$((fail + 1)); }
done
# zhang-alpha --law: the damping for e = 0.6 (n = 3/2, m = 1/4, SI units), simulated back
c=$("$BIN" zhang-alpha --law approach-damper --n 1.5 --m 0.25 --e 0.6 --k 1e8 --mass 0.05 --v 2 --json | sed 's/.*"lambda":\([^,]*\),.*/\1/')
e=$("$BIN" simulate --law approach-damper --n 1.5 --m 0.25 --c "$c" --k 1e8 --mass 0.05 --v 2 --json | sed 's/.*"e_out":\([^,]*\),.*/\1/')
awk -v e="$e" 'BEGIN { d = e - 0.6; if (d < 0) d = -d; exit !(d < 1e-9) }' || { echo "FAIL: law round trip c = $c e = $e"; fail=$((fail + 1)); }
expect 2 simulate --law nosuch --n 1 --c 1
expect 2 simulate --law approach-damper --n 1 --c 1 --transition B
expect 2 simulate --law approach-damper --n 1
expect 2 simulate --law approach-damper --n 0 --c 1
expect 2 zhang-alpha --law approach-damper --n 1.5 --m 0.25 --e 1
expect 2 zhang-alpha --law power --m 0 --e 0.5
# the law's defaults: m = 0 unless given (zhang-alpha --law as simulate --law)
a=$("$BIN" zhang-alpha --law power --n 1.5 --e 0.5 --json)
b=$("$BIN" zhang-alpha --law power --n 1.5 --m 0 --e 0.5 --json)
[ "$a" = "$b" ] || { echo "FAIL: zhang-alpha --law power: m defaults to 0"; fail=$((fail + 1)); }

echo "test_simulate.sh: $pass table cases passed, $fail failures"
[ "$fail" = 0 ]
