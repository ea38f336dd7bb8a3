#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CLI checks for the Ramaswamy-Humbert work: `impactfit dtau-surrogate` (bad input exits 2 with one
# error line; a small build writes a header that compiles alone and reproduces pi = dtau(0, 1) and
# the committed header's values), the hc-eps and impact-time sweep problems through `impactfit
# sweep` (bad definitions exit 2; the regenerated ramaswamy_eps.h equals the committed header), and
# the new fit-file keys (objective = minimax_*, weights, ridge, exact) with their error messages.
set -u
BIN=${1:?usage: test_ramaswamy.sh path/to/impactfit SOURCE_DIR}
SRC=${2:?usage: test_ramaswamy.sh path/to/impactfit SOURCE_DIR}
SRC=$(cd "$SRC" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
pass=0

expect() { # expect CODE 'REGEX' ARGS...: exit code, and for errors one line matching REGEX
  local want=$1 re=$2
  shift 2
  "$BIN" "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL: impactfit $* -> exit $got, want $want"; cat "$TMP/err"; fail=$((fail + 1)); return
  fi
  if [ "$want" != 0 ]; then
    if [ "$(grep -c '' "$TMP/err")" != 1 ] || ! grep -Eq "^impactfit: error: $re" "$TMP/err"; then
      echo "FAIL: impactfit $* -> stderr is not one 'impactfit: error: $re' line:"; cat "$TMP/err"
      fail=$((fail + 1)); return
    fi
  fi
  pass=$((pass + 1))
}

# ---- dtau-surrogate ----
expect 2 '--deg-eps|.*degrees' dtau-surrogate --deg-eps 0 --out "$TMP/x.h"
expect 2 '.*n range' dtau-surrogate --n-min 2 --n-max 1 --out "$TMP/x.h"
expect 2 '.*eps_max' dtau-surrogate --eps-max 2e4 --out "$TMP/x.h"
expect 2 '--check-eps' dtau-surrogate --check-eps 1 --out "$TMP/x.h"
expect 2 '.*C identifier' dtau-surrogate --name 1bad --out "$TMP/x.h"
expect 2 '.*' dtau-surrogate --colour red
[ -e "$TMP/x.h" ] && { echo "FAIL: a header was written despite invalid input"; fail=$((fail + 1)); }
# too low degrees for the 1e-6 target: exit 1, nothing written
expect 1 'dtau-surrogate: held-out error' dtau-surrogate --deg-eps 4 --deg-n 2 --check-eps 11 --check-n 3 --out "$TMP/low.h"
[ -e "$TMP/low.h" ] && { echo "FAIL: a header was written although the check failed"; fail=$((fail + 1)); }
# a small surrogate: compiles alone, pi at (0, 1), NaN outside the box
expect 0 '' dtau-surrogate --name small --eps-max 20 --deg-eps 24 --deg-n 8 --check-eps 21 --check-n 6 --out "$TMP/small.h"
grep -q 'DO NOT EDIT' "$TMP/small.h" && grep -q 'held-out points' "$TMP/small.h" || { echo "FAIL: banner"; fail=$((fail + 1)); }
cat >"$TMP/use.c" <<EOF
#include <math.h>
#include <stdio.h>
#include "$TMP/small.h"
#include "$SRC/include/impactfit/generated/ramaswamy_dtau_surrogate.h"
int main(void) {
  double pi = 3.14159265358979323846, a = impactfit_small(0.0, 1.0), b = impactfit_ramaswamy_dtau_surrogate(0.0, 1.0);
  double c = impactfit_small(7.3, 1.6), d = impactfit_ramaswamy_dtau_surrogate(7.3, 1.6);
  int ok = fabs(a / pi - 1) < 1e-6 && fabs(b / pi - 1) < 1e-9 && fabs(c / d - 1) < 1e-6 &&
           isnan(impactfit_small(21.0, 1.5)) && isnan(impactfit_small(1.0, 2.5));
  printf("%.17g %.17g %.17g %.17g\n", a, b, c, d);
  return ok ? 0 : 1;
}
EOF
if cc -std=c11 -Wall -Wextra -Werror "$TMP/use.c" -o "$TMP/use" -lm && "$TMP/use" >"$TMP/use.out"; then pass=$((pass + 1)); else
  echo "FAIL: generated surrogate headers: compile or values"; cat "$TMP/use.out"; fail=$((fail + 1))
fi
"$BIN" dtau-surrogate --name small --eps-max 20 --deg-eps 24 --deg-n 8 --check-eps 21 --check-n 6 --out - --json >"$TMP/h.txt" 2>"$TMP/j.txt"
cmp -s "$TMP/h.txt" "$TMP/small.h" && grep -q '"max_rel":' "$TMP/j.txt" || { echo "FAIL: --out - / --json"; fail=$((fail + 1)); }

# ---- the sweep problems ----
mkdir -p "$TMP/sw"
printf '[sweep]\nproblem = hc-eps\n[axes]\ne = linear 0, 1, 3\n' >"$TMP/sw/bad1.ini"
expect 2 'sweep: .*bad1.ini' sweep "$TMP/sw/bad1.ini" --out "$TMP/sw"
printf '[sweep]\nproblem = impact-time\n[fixed]\nn = 1.5\n[axes]\neps = list 1, 3e7\n' >"$TMP/sw/bad2.ini"
expect 2 'sweep: .*bad2.ini' sweep "$TMP/sw/bad2.ini" --out "$TMP/sw"
printf '[sweep]\nproblem = impact-time\n[fixed]\nk = 1e8\nmass = 0.05\nv = 2\n[axes]\neps = list 0, 0.8\nn = list 1, 1.5\n' >"$TMP/sw/it.ini"
expect 0 '' sweep "$TMP/sw/it.ini" --out "$TMP/sw" --threads 2
# row 0: eps = 0, n = 1: dtau = pi, dt = pi/omega_i with omega_i = sqrt(k/mass)
awk -F, 'NR == 2 { pi = 3.14159265358979323846; w = sqrt(1e8 / 0.05); d = $7 - pi; if (d < 0) d = -d; e = $10 - pi / w; if (e < 0) e = -e;
  f = $9 - w; if (f < 0) f = -f; exit !(d < 1e-12 && e < 1e-12 * pi / w && f < 1e-14 * w) }' "$TMP/sw/it.csv" || { echo "FAIL: impact-time sweep row 0"; cat "$TMP/sw/it.csv"; fail=$((fail + 1)); }
# the committed ramaswamy_eps.h from the CLI pipeline
mkdir -p "$TMP/data" "$TMP/hdr"
expect 0 '' sweep "$SRC/sweeps/ramaswamy_eps.ini" --out "$TMP/data"
expect 0 '' fit "$SRC/fits/ramaswamy_eps.ini" --data "$TMP/data" --header-dir "$TMP/hdr"
cmp -s "$TMP/hdr/ramaswamy_eps.h" "$SRC/include/impactfit/generated/ramaswamy_eps.h" ||
  { echo "FAIL: ramaswamy_eps.h regenerated through the CLI differs"; fail=$((fail + 1)); }
grep -q 'stage minimax: eps(e) by form formula, minimax of relative residuals' "$TMP/out" ||
  { echo "FAIL: fit output names the minimax objective"; cat "$TMP/out"; fail=$((fail + 1)); }

# ---- fit-file keys ----
cp "$SRC/sweeps/ramaswamy_eps.ini" "$TMP/data/eps.ini"
mk() { # mk NAME KEY-LINE
  printf '[fit]\nsweep = eps.ini\n[stage s]\ndata = sweep\nwhere = e < 1\nx = e\ny = eps\nform = formula\nformula = a/e + b\nconstants = a, b\nstart = 1, 0\n%s\n' "$2" >"$TMP/data/$1.ini"
}
"$BIN" sweep "$TMP/data/eps.ini" --out "$TMP/data" >/dev/null
mk obj 'objective = minimax'
expect 2 ".*obj.ini:12: stage s: objective is absolute, relative, minimax_absolute or minimax_relative" fit "$TMP/data/obj.ini" --data "$TMP/data" --header-dir "$TMP/hdr"
mk wts 'weights = simpson'
expect 2 ".*wts.ini:12: stage s: weights is equal or trapezoid" fit "$TMP/data/wts.ini" --data "$TMP/data" --header-dir "$TMP/hdr"
mk rdg 'ridge = -1'
expect 2 ".*rdg.ini:.*ridge" fit "$TMP/data/rdg.ini" --data "$TMP/data" --header-dir "$TMP/hdr"
printf '[fit]\nsweep = eps.ini\nexact = maybe\n[stage s]\ndata = sweep\nx = e\ny = eps\nform = exp\n' >"$TMP/data/ex.ini"
expect 2 ".*ex.ini:3: exact is yes or no" fit "$TMP/data/ex.ini" --data "$TMP/data" --header-dir "$TMP/hdr"
mk ok 'objective = minimax_absolute'
expect 0 '' fit "$TMP/data/ok.ini" --data "$TMP/data" --header-dir "$TMP/hdr"
grep -q 'objective: minimax, smallest max |f - y| (NLopt SLSQP' "$TMP/hdr/ok.h" || { echo "FAIL: minimax banner"; fail=$((fail + 1)); }

echo "test_ramaswamy.sh: $pass passed, $fail failed"
[ "$fail" = 0 ]
