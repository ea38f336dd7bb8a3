#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CLI checks for the Poursina & Nikravesh reproduction: the sweep problem copt through `impactfit
# sweep` (exit codes, one error line), the committed sweep and fit files regenerate a header with the
# committed constants (a coarse variant of the grid is enough for the stage layout), and
# `impactfit check --topic copt` fails (exit 1) when the committed poursina2020.h states a smaller
# residual than its alpha(n) achieves, and refuses (exit 2) a header that is not the compiled one.
set -u
BIN=${1:?usage: test_copt.sh path/to/impactfit SOURCE_DIR}
SRC=${2:?}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0

# a small copt sweep: continuation along e, every point solved, c_opt = 0 at e = 1
cat >"$TMP/small.ini" <<'INI'
[sweep]
problem = copt
[fixed]
k = 1e8
mass = 0.05
v = 2
[axes]
n = list 1.5
e = linear 0.5, 1, 11
INI
"$BIN" sweep "$TMP/small.ini" --out "$TMP" --threads 2 >"$TMP/out" 2>"$TMP/err"
[ $? = 0 ] || { echo "FAIL: copt sweep exit"; cat "$TMP/err"; fail=$((fail + 1)); }
head -1 "$TMP/small.csv" | grep -q '^index,n,e,k,mass,v,tol,max_iter,c_opt,zeta,e_out,e_err,delta_sep,t_contact,iterations,status,rhs_evals$' ||
  { echo "FAIL: copt CSV header"; head -1 "$TMP/small.csv"; fail=$((fail + 1)); }
[ "$(grep -c ',OK,' "$TMP/small.csv")" = 11 ] || { echo "FAIL: 11 rows OK"; fail=$((fail + 1)); }
# the row at e = 1 has c_opt = 0; at e = 0.5 c_opt agrees with `impactfit copt` to 8 digits
awk -F, '$3 == 1 && $9 != 0 { bad = 1 } END { exit bad }' "$TMP/small.csv" || { echo "FAIL: c_opt(e = 1) = 0"; fail=$((fail + 1)); }
c_sweep=$(awk -F, '$3 == 0.5 { print $9 }' "$TMP/small.csv")
c_cmd=$("$BIN" copt --n 1.5 --e 0.5 --k 1e8 --mass 0.05 --v 2 --json | sed 's/.*"c_opt": *\([^,}]*\).*/\1/')
awk -v a="$c_sweep" -v b="$c_cmd" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= 1e-8 * b) }' ||
  { echo "FAIL: sweep c_opt $c_sweep vs impactfit copt $c_cmd"; fail=$((fail + 1)); }

# invalid definitions: exit 2, one error line
for def in "e = 0" "method = newton" "tol = 1e-20" "dimensional = 2"; do
  printf '[sweep]\nproblem = copt\n[fixed]\nn = 1.5\n%s\n[axes]\nk = list 1, 2\n' "$def" >"$TMP/bad.ini"
  "$BIN" sweep "$TMP/bad.ini" --out "$TMP" >/dev/null 2>"$TMP/err"
  rc=$?
  if [ $rc != 2 ] || [ "$(grep -c '' "$TMP/err")" != 1 ] || ! grep -q '^impactfit: error: ' "$TMP/err"; then
    echo "FAIL: bad copt definition '$def' -> exit $rc"; cat "$TMP/err"; fail=$((fail + 1))
  fi
done

# check --topic copt on a copy of the sources
mk_src() {
  rm -rf "$TMP/src"
  mkdir -p "$TMP/src/sweeps" "$TMP/src/fits" "$TMP/src/include/impactfit/generated" "$TMP/src/tests/published"
  cp "$SRC"/sweeps/poursina2020*.ini "$TMP/src/sweeps/"
  cp "$SRC/fits/poursina2020.ini" "$TMP/src/fits/"
  cp "$SRC/include/impactfit/generated/poursina2020.h" "$SRC/include/impactfit/generated/copt_surrogate.h" \
    "$TMP/src/include/impactfit/generated/" # check compares both with the compiled-in copies
  cp "$SRC/tests/published/copt.ini" "$TMP/src/tests/published/"
}
mk_src
"$BIN" check --src "$TMP/src" --topic copt >"$TMP/out" 2>"$TMP/err"
[ $? = 0 ] || { echo "FAIL: check --topic copt on the committed files"; tail -5 "$TMP/out"; cat "$TMP/err"; fail=$((fail + 1)); }
# the fit statistics come from the compiled header's arrays (poursina2020_alpha_max_abs, ..._per_n_se),
# not from its banner: a header on disk that differs from the compiled one (a banner residual edited,
# or a constant) is a stale build, a missed target (exit 1), whatever the change
H="$TMP/src/include/impactfit/generated/poursina2020.h"
awk '/Stage alpha:/ { s = 1 } s && /max \|f - y\| = / && !done { sub(/max \|f - y\| = [0-9.e+-]+/, "max |f - y| = 2e-06"); done = 1 } { print }' \
  "$SRC/include/impactfit/generated/poursina2020.h" >"$H"
cmp -s "$H" "$SRC/include/impactfit/generated/poursina2020.h" && { echo "FAIL: tampering did not change the header"; fail=$((fail + 1)); }
"$BIN" check --src "$TMP/src" --topic copt >"$TMP/out" 2>"$TMP/err"
[ $? = 1 ] || { echo "FAIL: check did not fail on an edited banner"; fail=$((fail + 1)); }
grep -q 'MISSED .*poursina2020.h differs from the copy built into this program' "$TMP/out" ||
  { echo "FAIL: the edited header is not reported as a stale build"; fail=$((fail + 1)); }
mk_src
sed -i '0,/alpha    = [0-9][0-9.e+-]*/s//alpha    = 9.8765/' "$H"
cmp -s "$H" "$SRC/include/impactfit/generated/poursina2020.h" && { echo "FAIL: tampering did not change a constant"; fail=$((fail + 1)); }
"$BIN" check --src "$TMP/src" --topic copt >"$TMP/out" 2>"$TMP/err"
[ $? = 1 ] && grep -q 'MISSED .*poursina2020.h differs from the copy built into this program' "$TMP/out" ||
  { echo "FAIL: a changed header must be a missed target (exit 1)"; cat "$TMP/err"; fail=$((fail + 1)); }
echo "test_copt.sh: $fail failures"
[ "$fail" = 0 ]
