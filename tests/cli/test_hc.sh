#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CLI checks for the Hunt-Crossley commands (hc-eps, impact-time, identify-hc, hc-audit): a table of
# bad inputs (each must exit 2 with exactly one "impactfit: error:" line on stderr and nothing on
# stdout), successful runs, and values checked against independent references (pi, a 60-digit
# value of eps(0.5), a round trip impact-time -> identify-hc).
set -u
BIN=${1:?usage: test_hc.sh path/to/impactfit}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
pass=0

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
    if [ "$nerr" != 1 ] || grep -qv '^impactfit: error: ' "$TMP/err"; then
      echo "FAIL: impactfit $* -> stderr is not one 'impactfit: error:' line:"; cat "$TMP/err"
      fail=$((fail + 1)); return
    fi
    if [ "$want" = 2 ] && [ -s "$TMP/out" ]; then
      echo "FAIL: impactfit $* -> printed on stdout despite invalid input"; fail=$((fail + 1)); return
    fi
  elif [ -s "$TMP/err" ]; then
    echo "FAIL: impactfit $* -> wrote to stderr on success:"; cat "$TMP/err"; fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}

# relclose A B TOL: |A - B| <= TOL |B|
relclose() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; s = b < 0 ? -b : b;
  exit !(a != "" && d <= t * s) }'; }
# field NAME: the number after "NAME": in the JSON on stdin
field() { sed -n "s/.*\"$1\":\([-0-9.eE+]*\).*/\1/p"; }

# ---- hc-eps: invalid input ----
expect 2 hc-eps
expect 2 hc-eps --e 0
expect 2 hc-eps --e -0.5
expect 2 hc-eps --e 1.5
expect 2 hc-eps --e 1.0000001
expect 2 hc-eps --e nan
expect 2 hc-eps --e inf
expect 2 hc-eps --e abc
expect 2 hc-eps --e ''
expect 2 hc-eps --e 1e-320
expect 2 hc-eps --e 0:1:3
expect 2 hc-eps --e 0.5,,0.6
expect 2 hc-eps --e 0.5:0.6
expect 2 hc-eps --e 0.5 --k 1
expect 2 hc-eps --e 0.5 --v 1
expect 2 hc-eps --e 0.5 --k 0 --v 1
expect 2 hc-eps --e 0.5 --k 1 --v -1
expect 2 hc-eps --e 0.5 --k 1e300 --v 1e-300
expect 2 hc-eps --e 0.5 --formula nosuch
expect 2 hc-eps --e 0.5 --formula ''
expect 2 hc-eps --e 0.5 --bogus 1
expect 2 hc-eps --e 0.5 --e 0.6
expect 2 hc-eps --e 0.5 stray
expect 2 hc-eps --e 0.5 --json=1
# ---- impact-time: invalid input ----
expect 2 impact-time
expect 2 impact-time --eps 1
expect 2 impact-time --n 1.5
expect 2 impact-time --eps -1 --n 1.5
expect 2 impact-time --eps 2e7 --n 1.5
expect 2 impact-time --eps nan --n 1.5
expect 2 impact-time --eps 1 --n 0
expect 2 impact-time --eps 1 --n -1
expect 2 impact-time --eps 1 --n 1.5 --k 1
expect 2 impact-time --eps 1 --n 1.5 --k 1 --mass 1
expect 2 impact-time --eps 1 --n 1.5 --k 0 --mass 1 --v 1
expect 2 impact-time --eps 1 --n 1.5 --k 1 --mass -1 --v 1
expect 2 impact-time --eps 1 --n 0.5 --k 1e300 --mass 1e-300 --v 1
expect 2 impact-time --eps 1,-1 --n 1.5
expect 2 impact-time --eps 1 --n 1:2:0
# ---- identify-hc: invalid input ----
expect 2 identify-hc
expect 2 identify-hc --dt 1e-3 --v 1 --mass 1 --n 1.5
expect 2 identify-hc --e 0.5 --v 1 --mass 1 --n 1.5
expect 2 identify-hc --e 0.5 --dt 1e-3 --mass 1 --n 1.5
expect 2 identify-hc --e 0.5 --dt 1e-3 --v 1 --n 1.5
expect 2 identify-hc --e 0.5 --dt 1e-3 --v 1 --mass 1
expect 2 identify-hc --e 0 --dt 1e-3 --v 1 --mass 1 --n 1.5
expect 2 identify-hc --e 1.5 --dt 1e-3 --v 1 --mass 1 --n 1.5
expect 2 identify-hc --e 0.5 --dt 0 --v 1 --mass 1 --n 1.5
expect 2 identify-hc --e 0.5 --dt -1 --v 1 --mass 1 --n 1.5
expect 2 identify-hc --e 0.5 --dt 1e-3 --v 0 --mass 1 --n 1.5
expect 2 identify-hc --e 0.5 --dt 1e-3 --v 1 --mass 0 --n 1.5
expect 2 identify-hc --e 0.5 --dt 1e-3 --v 1 --mass 1 --n 0
expect 2 identify-hc --e 0.5 --dt 1e-300 --v 1e-300 --mass 1e300 --n 1.5
expect 2 identify-hc --e 1e-9 --dt 1e-3 --v 1 --mass 1 --n 1.5
# ---- hc-audit: invalid input ----
expect 2 hc-audit --points 1
expect 2 hc-audit --points x
expect 2 hc-audit --e-min 0
expect 2 hc-audit --e-min 1
expect 2 hc-audit --n 0
expect 2 hc-audit --dtau-eps-max 0
expect 2 hc-audit --dtau-eps-max 1000
expect 2 hc-audit --dtau-points 1
expect 2 hc-audit --dtau-n-points 0
expect 2 hc-audit --bogus

# ---- success ----
for c in hc-eps impact-time identify-hc hc-audit; do
  expect 0 "$c" --help
  "$BIN" --help | grep -q "^  $c " || { echo "FAIL: $c not listed in --help"; fail=$((fail + 1)); }
done
expect 0 hc-eps --e 0.5
expect 0 hc-eps --e 0.01:1:5 --json
expect 0 hc-eps --e 0.3 --formula hu-guo --k 1e8 --v 2
expect 0 impact-time --eps 0,1 --n 1,2
expect 0 identify-hc --e 0.6 --dt 1e-4 --v 2 --mass 0.05 --n 1.5
expect 0 identify-hc --e 0.6,0.7 --dt 1e-4 --v 2 --mass 0.05 --n 1.5 --json
expect 0 hc-audit --points 11 --dtau-points 5 --dtau-n-points 3

# ---- values ----
# eps(0.5) = 1.43275053327137502805 (60-digit bisection on ln(1+x) - ln(1-x/2) - 1.5x = 0)
eps=$("$BIN" hc-eps --e 0.5 --json | field eps)
relclose "$eps" 1.43275053327137502805 1e-15 || { echo "FAIL: hc-eps --e 0.5 gave $eps"; fail=$((fail + 1)); }
lam=$("$BIN" hc-eps --e 0.5 --k 1e8 --v 2 --json | field lambda)
relclose "$lam" 71637526.6635687514 1e-15 || { echo "FAIL: lambda = eps k / v gave $lam"; fail=$((fail + 1)); }
# e = 1 gives exactly 0, every formula
for f in hunt-crossley herbert-mcwhannell lee-wang lankarani-nikravesh gonthier zhiying-qishao flores hu-guo exact zhang-2020 ramaswamy-humbert; do
  [ "$("$BIN" hc-eps --e 1 --formula "$f" --json | field eps)" = 0 ] || { echo "FAIL: $f at e = 1"; fail=$((fail + 1)); }
done
[ "$("$BIN" hc-eps --e 0.1,0.2,0.3 --k 1,2 --v 1 --json | grep -c '')" = 6 ] || { echo "FAIL: hc-eps grid rows"; fail=$((fail + 1)); }
# dtau(0, 1) = pi
d=$("$BIN" impact-time --eps 0 --n 1 --json | field dtau)
relclose "$d" 3.14159265358979323846 1e-13 || { echo "FAIL: dtau(0, 1) = $d, want pi"; fail=$((fail + 1)); }
# dt = dtau / omega_i with omega_i = (k v^(n-1)/mass)^(1/(n+1)) = (1e8 * 2^0.5 / 0.05)^(1/2.5)
out=$("$BIN" impact-time --eps 0.8 --n 1.5 --k 1e8 --mass 0.05 --v 2 --json)
d=$(printf '%s' "$out" | field dtau); dt=$(printf '%s' "$out" | field dt)
om=$(awk 'BEGIN { printf "%.17g", exp(log(1e8 * sqrt(2) / 0.05) / 2.5) }')
relclose "$(printf '%s' "$out" | field omega_i)" "$om" 1e-14 || { echo "FAIL: omega_i"; fail=$((fail + 1)); }
relclose "$dt" "$(awk -v d="$d" -v o="$om" 'BEGIN { printf "%.17g", d / o }')" 1e-14 || { echo "FAIL: dt"; fail=$((fail + 1)); }
# round trip: the duration and restitution of that impact identify k = 1e8 and lambda = 0.8 k / v
e=$(printf '%s' "$out" | sed -n 's/.*"e":\([-0-9.eE+]*\).*/\1/p')
out=$("$BIN" identify-hc --e "$e" --dt "$dt" --v 2 --mass 0.05 --n 1.5 --json)
relclose "$(printf '%s' "$out" | field k)" 1e8 1e-9 || { echo "FAIL: identify-hc k: $out"; fail=$((fail + 1)); }
relclose "$(printf '%s' "$out" | field lambda)" 4e7 1e-9 || { echo "FAIL: identify-hc lambda: $out"; fail=$((fail + 1)); }
for key in eps dtau omega_i e_sim dt_sim e_residual dt_residual; do
  printf '%s' "$out" | grep -q "\"$key\":[-0-9]" || { echo "FAIL: identify-hc --json lacks $key"; fail=$((fail + 1)); }
done
# the audit: 11 formulas, 3 sets of RH constants, 2 dtau surfaces; the exact formula is exact
out=$("$BIN" hc-audit --points 11 --dtau-points 5 --dtau-n-points 3 --json)
[ "$(printf '%s\n' "$out" | grep -c '"kind":"formula"')" = 11 ] || { echo "FAIL: audit formula rows"; fail=$((fail + 1)); }
[ "$(printf '%s\n' "$out" | grep -c '"kind":"rh_eps_fit"')" = 3 ] || { echo "FAIL: audit RH rows"; fail=$((fail + 1)); }
[ "$(printf '%s\n' "$out" | grep -c '"kind":"dtau"')" = 2 ] || { echo "FAIL: audit dtau rows"; fail=$((fail + 1)); }
g=$(printf '%s\n' "$out" | grep '"formula":"exact"' | field e_err_max)
awk -v g="$g" 'BEGIN { exit !(g != "" && g < 1e-12) }' || { echo "FAIL: audit exact e_err_max = $g"; fail=$((fail + 1)); }
# gonthier is the closed form (1 - e^2)/e: at e = 0.5, 1.5
relclose "$("$BIN" hc-eps --e 0.5 --formula gonthier --json | field eps)" 1.5 1e-15 || { echo "FAIL: gonthier closed form"; fail=$((fail + 1)); }
# Hu-Guo at e = 0.01: 148.5 against the exact 100 (1/e to 40 digits)
g=$(printf '%s\n' "$out" | grep '"formula":"hu-guo"' | field eps_err_max)
relclose "$g" 0.485 1e-13 || { echo "FAIL: audit hu-guo eps_err_max = $g"; fail=$((fail + 1)); }

echo "test_hc.sh: $pass table cases passed, $fail failures"
[ "$fail" = 0 ]
