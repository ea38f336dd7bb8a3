#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CLI checks for `impactfit roller` and `impactfit pendulum`: bad inputs (exit 2, exactly one
# "impactfit: error:" line, nothing on stdout), numerical failures (exit 1), and the documented
# outputs (--help, --json records and keys, --trace files, the comparison tables).
set -u
BIN=${1:?usage: test_multibody.sh path/to/impactfit}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
pass=0

MULTI=0 # 1: several error lines allowed (one per failed case/condition pair)
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
  elif [ -s "$TMP/err" ]; then
    echo "FAIL: impactfit $* -> success with output on stderr:"; cat "$TMP/err"; fail=$((fail + 1)); return
  fi
  pass=$((pass + 1))
}

# ---- invalid input: exit 2 ----
expect 2 roller
expect 2 roller --case I
expect 2 roller --transition C
expect 2 roller --case V --transition C
expect 2 roller --case 2 --transition C
expect 2 roller --case I,,II --transition C
expect 2 roller --case '' --transition C
expect 2 roller --case I --transition E
expect 2 roller --case I --transition CD
expect 2 roller --case I --transition C --periods 0
expect 2 roller --case I --transition C --periods x
expect 2 roller --case I --transition C --periods 99999
expect 2 roller --case I --transition C --max-periods 0
expect 2 roller --case I --transition C --tol 0
expect 2 roller --case I --transition C --tol 1
expect 2 roller --case I --transition C --tol nan
expect 2 roller --case I --transition C --trace-points 10
expect 2 roller --case I --transition C --trace "$TMP/r.csv" --trace-points 0
expect 2 roller --case all --transition C --trace "$TMP/r.csv"
expect 2 roller --case I --transition C --bogus
expect 2 roller --case I --transition C --case II
expect 2 roller --case I --transition C stray
expect 2 pendulum
expect 2 pendulum --model hertz
expect 2 pendulum --model impulse,
expect 2 pendulum --model impulse --e 0
expect 2 pendulum --model impulse --e 1.5
expect 2 pendulum --model impulse --e abc
expect 2 pendulum --model copt --n 0.5
expect 2 pendulum --model copt --k -1
expect 2 pendulum --model copt --k inf
expect 2 pendulum --model impulse --t-end 0
expect 2 pendulum --model impulse --t-end -3
expect 2 pendulum --model impulse --trace-dt 0.01
expect 2 pendulum --model impulse --trace "$TMP/p.csv" --trace-dt 0
expect 2 pendulum --model all --trace "$TMP/p.csv"
expect 2 pendulum --model impulse --json=yes
[ ! -e "$TMP/r.csv" ] && [ ! -e "$TMP/p.csv" ] || { echo "FAIL: invalid input left a trace file"; fail=$((fail + 1)); }

# ---- numerical failure: exit 1 ----
expect 1 roller --case III --transition C --max-periods 50
"$BIN" roller --case III --transition C --max-periods 50 --trace "$TMP/bad.csv" 2>/dev/null
[ ! -e "$TMP/bad.csv" ] || { echo "FAIL: a failing run left a trace file"; fail=$((fail + 1)); }
MULTI=1 expect 1 roller --case II,III --transition C --max-periods 300
MULTI=0
grep -q '^II  *C  *1 ' "$TMP/out" || { echo "FAIL: the row of the converged pair is missing:"; cat "$TMP/out"; fail=$((fail + 1)); }
grep -q '^III *C *ENOCONV' "$TMP/out" || { echo "FAIL: the failed pair's row is missing"; fail=$((fail + 1)); }

# ---- success ----
expect 0 roller --help
expect 0 pendulum --help
expect 0 roller --case I --transition A
expect 0 roller --case ii --transition d
expect 0 pendulum --model impulse
"$BIN" --help | grep -q '^  roller ' || { echo "FAIL: roller missing from --help"; fail=$((fail + 1)); }
"$BIN" --help | grep -q '^  pendulum ' || { echo "FAIL: pendulum missing from --help"; fail=$((fail + 1)); }

# roller JSON: a summary then one object per period; case I never loses contact
out=$("$BIN" roller --case I --transition C --periods 3 --json)
[ "$(printf '%s\n' "$out" | grep -c '"record":"summary"')" = 1 ] || { echo "FAIL: roller summary record"; fail=$((fail + 1)); }
[ "$(printf '%s\n' "$out" | grep -c '"record":"period"')" = 3 ] || { echo "FAIL: roller period records"; fail=$((fail + 1)); }
for key in multiplicity transient_periods losses_per_period contact_fraction touch_fraction a_max a_min f_max f_min tensile untouched_force error_estimate; do
  printf '%s' "$out" | head -1 | grep -q "\"$key\":[-0-9]" || { echo "FAIL: roller --json lacks $key"; fail=$((fail + 1)); }
done
printf '%s' "$out" | head -1 | grep -q '"multiplicity":1,' || { echo "FAIL: case I multiplicity"; fail=$((fail + 1)); }
printf '%s' "$out" | head -1 | grep -q '"losses_per_period":0,' || { echo "FAIL: case I loses contact"; fail=$((fail + 1)); }

# all 16 pairs: one row each; the paper's headline outcomes
out=$("$BIN" roller --case all --transition all)
[ "$(printf '%s\n' "$out" | grep -cE '^(I|II|III|IV) +[ABCD] ')" = 16 ] || { echo "FAIL: 16 rows expected:"; echo "$out"; fail=$((fail + 1)); }
printf '%s\n' "$out" | grep -qE '^III +C +2 ' || { echo "FAIL: III C is not period 2"; fail=$((fail + 1)); }
printf '%s\n' "$out" | grep -qE '^IV +A +1 .* 0 +1\.0000 .* yes +no$' || { echo "FAIL: IV A should never separate, with a tensile force"; fail=$((fail + 1)); }
printf '%s\n' "$out" | grep -qE '^IV +B .* 0\.0000 .* no +yes$' || { echo "FAIL: IV B should never touch yet have a force"; fail=$((fail + 1)); }

# roller trace: header, 2 periods x 10 samples + 1, transitions in before/after pairs
"$BIN" roller --case II --transition D --periods 2 --trace "$TMP/r.csv" --trace-points 10 >/dev/null
head -1 "$TMP/r.csv" | grep -q '^t,x_drum,x_frame,v_drum,v_frame,a_drum,force,element,in_contact,event$' || { echo "FAIL: roller trace header"; fail=$((fail + 1)); }
[ "$(awk -F, 'NR > 1 && $10 == 0' "$TMP/r.csv" | grep -c '')" = 21 ] || { echo "FAIL: roller trace samples"; fail=$((fail + 1)); }
[ "$(awk -F, 'NR > 1 && $10 != 0' "$TMP/r.csv" | grep -c '')" = 8 ] || { echo "FAIL: roller trace transitions (one start and one loss per period, two rows each)"; fail=$((fail + 1)); }

# pendulum: impulse applies e exactly; three impacts in 8 s for every model
out=$("$BIN" pendulum --model impulse --json)
[ "$(printf '%s\n' "$out" | grep -c '"record":"impact"')" = 3 ] || { echo "FAIL: three impacts expected"; fail=$((fail + 1)); }
for key in t_start v_in e_eff omega1_before omega2_before omega1_after omega2_after mass lever; do
  printf '%s' "$out" | head -1 | grep -q "\"$key\":[-0-9]" || { echo "FAIL: pendulum --json lacks $key"; fail=$((fail + 1)); }
done
printf '%s\n' "$out" | grep '"record":"impact"' | sed 's/.*"e_eff":\([^,]*\),.*/\1/' | awk '{ d = $1 - 0.3; if (d < 0) d = -d; if (d > 1e-12) bad = 1 } END { exit bad }' ||
  { echo "FAIL: impulse e_eff is not 0.3"; fail=$((fail + 1)); }
out=$("$BIN" pendulum --model all)
[ "$(printf '%s\n' "$out" | grep -c 'impacts: 3,')" = 3 ] || { echo "FAIL: pendulum comparison:"; echo "$out"; fail=$((fail + 1)); }

# pendulum trace: 2 s at 0.01 s = 201 samples, one impact (t = 1.14 s) = 2 rows
"$BIN" pendulum --model impulse --t-end 2 --trace "$TMP/p.csv" --trace-dt 0.01 >/dev/null
head -1 "$TMP/p.csv" | grep -q '^t,theta1,theta2,omega1,omega2,delta,delta_dot,force,energy,in_contact,event$' || { echo "FAIL: pendulum trace header"; fail=$((fail + 1)); }
[ "$(grep -c '' "$TMP/p.csv")" = 204 ] || { echo "FAIL: pendulum trace rows: $(grep -c '' "$TMP/p.csv")"; fail=$((fail + 1)); }
ls "$TMP" | grep -q '\.tmp\.' && { echo "FAIL: temporary files left behind"; fail=$((fail + 1)); }

# the report topic: every panel of the multiplot figures in both formats (gnuplot's replot would
# repeat only the last panel), and every statement of the papers holds
if "$BIN" reproduce --topic multibody --out "$TMP/rep" >/dev/null 2>"$TMP/err"; then
  for c in I II III IV; do
    for label in 'drum acceleration' 'drum position' 'contact force'; do
      grep -q "$label" "$TMP/rep/roller_$c.svg" || { echo "FAIL: roller_$c.svg lacks the panel '$label'"; fail=$((fail + 1)); }
    done
    head -c 24 "$TMP/rep/roller_$c.png" | od -An -tu1 | tr -s ' \n' ' ' | grep -q ' 0 0 4 1 0 0 4 76 $' ||
      { echo "FAIL: roller_$c.png is not 1025 x 1100"; fail=$((fail + 1)); }
  done
  for f in pendulum pendulum_contact; do
    [ -s "$TMP/rep/$f.svg" ] && [ -s "$TMP/rep/$f.png" ] || { echo "FAIL: $f figure missing"; fail=$((fail + 1)); }
  done
  grep -q 'does not hold' "$TMP/rep/REPORT.md" && { echo "FAIL: a multibody claim does not hold"; fail=$((fail + 1)); }
else
  echo "FAIL: reproduce --topic multibody"; cat "$TMP/err"; fail=$((fail + 1))
fi

echo "test_multibody.sh: $pass table cases passed, $fail failures"
[ "$fail" = 0 ]
