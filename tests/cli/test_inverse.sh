#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CLI checks for `impactfit copt` and `impactfit zhang-alpha`: a table of bad inputs (exit 2, one
# "impactfit: error:" line, nothing on stdout), the no-solution case (exit 1), and the outputs.
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
  "$BIN" "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
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
expect 2 copt
expect 2 copt --n 1.5
expect 2 copt --e 0.5
expect 2 copt --n 1.5 --e 0
expect 2 copt --n 1.5 --e -0.2
expect 2 copt --n 1.5 --e 1.5
expect 2 copt --n 1.5 --e nan
expect 2 copt --n 1.5 --e inf
expect 2 copt --n 1.5 --e abc
expect 2 copt --n 0 --e 0.5
expect 2 copt --n -1 --e 0.5
expect 2 copt --n 1.5 --e 0.5 --k 0
expect 2 copt --n 1.5 --e 0.5 --mass -1
expect 2 copt --n 1.5 --e 0.5 --v 0
expect 2 copt --n 1.5 --e 0.5 --method newton
expect 2 copt --n 1.5 --e 0.5 --tol 0
expect 2 copt --n 1.5 --e 0.5 --tol 1
expect 2 copt --n 1.5 --e 0.5 --json --csv
expect 2 copt --n 1.5 --e 0.5:1:0
expect 2 copt --n 1.5 --e 0.1,1.2
expect 2 copt --n 1.5 --e 0.5 --m 0
expect 2 zhang-alpha --n 1.5 --e 0.5
expect 2 zhang-alpha --n 1.5 --m 0.25 --e 1
expect 2 zhang-alpha --n 1.5 --m 0.25 --e 0
expect 2 zhang-alpha --n 1.5 --m -0.25 --e 0.5
expect 2 zhang-alpha --n 0 --m 0.25 --e 0.5
expect 2 zhang-alpha --n 1.5 --m 0.25 --e 0.5 --transition B
expect 2 zhang-alpha --n 1.5 --m 0.25 --e 0.5 --transition X
expect 2 zhang-alpha --n 1.5 --m 0.25 --e 0.5 --k 1e9
expect 2 zhang-alpha --n 1.5 --m 0.25 --e 0.5 --k 1e9 --mass 1 --v -1
expect 2 zhang-alpha --n 1.5 --m 0.25 --e 0.5 --method x

# ---- no solution: exit 1 with the reason ----
expect 1 zhang-alpha --n 1.5 --m 0 --e 1e-11 --transition A

# ---- success ----
expect 0 copt --help
expect 0 zhang-alpha --help
expect 0 copt --n 1.5 --e 1
expect 0 copt --n 1,2 --e 0.3:0.9:4 --csv
expect 0 zhang-alpha --n 1.5 --m 0.25 --e 0.5 --k 1e9 --mass 0.1 --v 2

# JSON keys of copt
out=$("$BIN" copt --n 1.5 --e 0.5 --json)
for key in n e c_opt e_out zeta delta_sep iterations rhs_evals; do
  printf '%s' "$out" | grep -q "\"$key\":" || { echo "FAIL: copt --json lacks $key: $out"; fail=$((fail + 1)); }
done
# JSON keys of zhang-alpha, lambda with k, mass and v
out=$("$BIN" zhang-alpha --n 1.5 --m 0.25 --e 0.5 --k 1e9 --mass 0.1 --v 2 --json)
for key in n m e alpha lambda_star e_out lambda; do
  printf '%s' "$out" | grep -q "\"$key\":" || { echo "FAIL: zhang-alpha --json lacks $key: $out"; fail=$((fail + 1)); }
done
# e = 1 gives c = 0 without simulating
out=$("$BIN" copt --n 1.5 --e 1 --json)
printf '%s' "$out" | grep -q '"c_opt":0,' && printf '%s' "$out" | grep -q '"iterations":0' ||
  { echo "FAIL: e = 1: $out"; fail=$((fail + 1)); }
# Kelvin-Voigt: c_opt(n = 1, e = exp(-2)) = 2 sqrt(k mass) (critical damping, xi = 1)
c=$("$BIN" copt --n 1 --e 0.1353352832366127 --k 4 --mass 9 --v 1 --json | sed 's/.*"c_opt":\([^,]*\),.*/\1/')
awk -v c="$c" 'BEGIN { d = c - 12; if (d < 0) d = -d; exit !(d < 1e-8) }' || { echo "FAIL: KV c_opt $c, want 12"; fail=$((fail + 1)); }
# a grid is printed in grid order and is the same for 1 and 2 threads
OMP_NUM_THREADS=1 "$BIN" copt --n 1:2:3 --e 0.2:1:9 --csv >"$TMP/g1"
OMP_NUM_THREADS=2 "$BIN" copt --n 1:2:3 --e 0.2:1:9 --csv >"$TMP/g2"
cmp -s "$TMP/g1" "$TMP/g2" || { echo "FAIL: copt grid differs between 1 and 2 threads"; fail=$((fail + 1)); }
[ "$(grep -c '' "$TMP/g1")" = 28 ] || { echo "FAIL: copt grid rows"; fail=$((fail + 1)); }

echo "test_inverse.sh: $pass table cases passed, $fail failures"
[ "$fail" = 0 ]
