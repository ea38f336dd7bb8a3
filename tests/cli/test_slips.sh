#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Unit and locale slips, and typing a list the code's way (issue 33 item 5, issue 38 item 7; docs/SCENE.md):
#  - warnings on stderr ("impactfit: warning: ...", exit 0, the answer unchanged) for E < 1e3 Pa, a radius > 1 m, a
#    density < 100 kg/m^3, a decimal comma read as a list (--n 1,5; --E 1,5), MuJoCo's direct solref per unit mass,
#    each naming the likely slip; none for the usual input;
#  - a setting's values separated by spaces as the code writes them (--solref "0.02 1", MuJoCo's form) give the
#    same answer as commas; a list option (--e, --v) typed with spaces is refused with "use commas";
#  - the friction a user types comes back in the pasted text (ODE's mu, Bullet's setFriction, MuJoCo's friction
#    and the settings its answer is computed for), and no pasted text sets a friction to 0 unless typed.
set -u
BIN=${1:?usage: test_slips.sh path/to/impactfit}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
B=(--v 1 --mass 0.001309 --radius 0.005)
DEM=(--code lammps --nu 0.3 --e 0.5 --v 1 --radius 0.005 --density 2500)

# warns WARN-PATTERN ARGS...: exit 0, a warning line matching the pattern, the answer printed
warns() {
  local pat=$1
  shift
  "$BIN" "$@" >"$TMP/out" 2>"$TMP/err"
  local rc=$?
  if [ $rc != 0 ] || ! grep -q "^impactfit: warning: .*$pat" "$TMP/err" || [ ! -s "$TMP/out" ]; then
    bad "impactfit $* -> exit $rc, want a warning matching '$pat'"; cat "$TMP/err"; return
  fi
  ok
}
quiet() { # no warning for the usual input
  "$BIN" "$@" >"$TMP/out" 2>"$TMP/err"
  if [ $? != 0 ] || grep -q 'warning' "$TMP/err"; then bad "impactfit $* warns:"; cat "$TMP/err"; return; fi
  ok
}

warns "--E 100 Pa is below 1e3 Pa: GPa or MPa typed as Pa" dem "${DEM[@]}" --E 100
warns "--radius 5 m is more than 1 m: millimetres typed as metres" dem --code lammps --nu 0.3 --E 1e8 --e 0.5 --v 1 --radius 5 --density 2500
warns "--density 2.5 kg/m^3 is below 100 kg/m^3: g/cm^3 typed as kg/m^3" dem --code lammps --nu 0.3 --E 1e8 --e 0.5 --v 1 --radius 0.005 --density 2.5
warns "--n 1,5 is read as two values (1 and 5): a decimal comma? write 1.5" copt --n 1,5 --e 0.5
# the warning comes before the error the two values then make
"$BIN" dem --code lammps --E 1e8 --nu 0,3 --e 0.5 --v 1 --radius 0.005 --density 2500 --pair >"$TMP/out" 2>"$TMP/err"
if [ $? = 2 ] && head -1 "$TMP/err" | grep -q "^impactfit: warning: --nu 0,3 is read as two values (0 and 3): a decimal comma? write 0.3" &&
  sed -n 2p "$TMP/err" | grep -q "^impactfit: error: "; then ok; else bad "--nu 0,3"; cat "$TMP/err"; fi
warns "the direct form is per unit mass" engine --code mujoco --model "soft contact direct" --solref -40,-4 --e 0.5 "${B[@]}"
quiet dem "${DEM[@]}" --E 1e8
quiet engine --code mujoco --model "soft contact direct" --solref -40000,-40 --e 0.5 "${B[@]}"
quiet copt --n 1.5 --e 0.5,0.7

# MuJoCo's own form: the same answer as commas
"$BIN" engine --code mujoco --solref "0.02 1" --e 0.5 "${B[@]}" --json >"$TMP/a" 2>"$TMP/ea"
"$BIN" engine --code mujoco --solref 0.02,1 --e 0.5 "${B[@]}" --json >"$TMP/b" 2>"$TMP/eb"
if [ -s "$TMP/a" ] && cmp -s "$TMP/a" "$TMP/b"; then ok; else bad "--solref '0.02 1' and 0.02,1 differ:"; cat "$TMP/ea"; fi
"$BIN" engine --code mujoco --solref "0.02,,1" --e 0.5 "${B[@]}" >"$TMP/out" 2>"$TMP/err"
if [ $? = 2 ] && grep -q "^impactfit: error: --solref: expected numbers separated by commas or spaces" "$TMP/err"; then ok; else bad "0.02,,1"; cat "$TMP/err"; fi
"$BIN" engine --code mujoco --e "0.3 0.5" "${B[@]}" >"$TMP/out" 2>"$TMP/err"
if [ $? = 2 ] && grep -q "^impactfit: error: --e: use commas between values (got '0.3 0.5'" "$TMP/err"; then ok; else bad "--e '0.3 0.5'"; cat "$TMP/err"; fi
# the count in the message is the model's (the Python binding says the same: python/tests/test_engine.py)
"$BIN" engine --code mujoco --solref "0.02 1 3" --e 0.5 "${B[@]}" >"$TMP/out" 2>"$TMP/err"
if [ $? = 2 ] && grep -q "^impactfit: error: engine: mujoco soft contact: solref takes 2 values (got 3)$" "$TMP/err"; then ok; else bad "3 values"; cat "$TMP/err"; fi
if grep -q 'engine: engine:' "$TMP/err"; then bad "a repeated prefix"; else ok; fi

# friction: typed comes back, never a silent 0
"$BIN" engine --code ode --model bounce --dt 0.001 --e 0.5 "${B[@]}" >"$TMP/out" 2>&1
if grep -q 'contact.surface.mu = <yours: mu>;' "$TMP/out" && ! grep -q 'mu = 0' "$TMP/out"; then ok; else bad "ode without mu"; cat "$TMP/out"; fi
"$BIN" engine --code ode --model bounce --dt 0.001 --mu 0.7 --e 0.5 "${B[@]}" >"$TMP/out" 2>&1
if grep -q 'contact.surface.mu = 0.7;' "$TMP/out"; then ok; else bad "ode mu 0.7"; cat "$TMP/out"; fi
"$BIN" engine --code bullet --friction 0.8 --e 0.5 "${B[@]}" >"$TMP/out" 2>&1
if grep -q 'sphere->setFriction(0.8);' "$TMP/out" && grep -q 'lateralFriction=0.8' "$TMP/out"; then ok; else bad "bullet friction"; cat "$TMP/out"; fi
"$BIN" engine --code mujoco --condim 4 --friction "0.5 0.5 0.01 0.001 0.001" --impratio 10 --e 0.5 "${B[@]}" >"$TMP/out" 2>&1
if grep -q '<geom condim="4" friction="0.5 0.01 0.001"' "$TMP/out" && grep -q '<option cone="pyramidal" impratio="10"/>' "$TMP/out" &&
  grep -q 'note: .*Computed for condim 4, the pyramidal cone, friction 0.5 (the contact.s first value) and impratio 10 (your settings' "$TMP/out"; then
  ok
else
  bad "mujoco condim 4"; cat "$TMP/out"
fi

echo "test_slips: $pass passed, $fail failed"
[ $fail = 0 ]
