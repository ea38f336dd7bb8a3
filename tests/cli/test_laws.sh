#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Force laws by name through the CLI (impactfit simulate --law, zhang-alpha --law, sweep files of
# problems law-impact and law-damping, a fit on their output), each against a solution that does not
# come from the program:
#   - MuJoCo's impedance law with a constant impedance (d0 = dwidth = d) is the linear Kelvin-Voigt
#     oscillator k = M d^2 K, c = M d B; with M = mass its damping ratio is xi = B/(2 sqrt(K)) and
#     e = exp(-pi xi/s) under A, exp(-2 xi atan2(s, xi)/s) under C (s = sqrt(1 - xi^2)), the contact
#     under A lasting pi/(d sqrt(K) s); the inverse under A is xi = -ln e/sqrt(pi^2 + ln^2 e);
#   - with MuJoCo's default solimp (a varying impedance) the values of a long double RK4 of tiny fixed
#     steps, written in tests/test_law.c (rk4_reference), which prints them;
#   - the approach damper with m = (n - 1)/2: e = exp(-xi acos(xi)/sqrt(1 - xi^2)),
#     xi = c/sqrt(2 (n + 1) mass k) (src/formulas/visco.c, docs/FORMULAS.md);
#   - the power law by name is impact.h's engine: the same numbers as plain `impactfit simulate`;
#   - a fit of zeta(e) from a law-damping sweep of the impedance law under A recovers pi^2.
set -u
BIN=${1:?usage: test_laws.sh path/to/impactfit}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
pass=0

check() { # check 'awk condition on $1..' VALUES... : each line of stdin (CSV) tested
  local name=$1 cond=$2
  shift 2
  if awk -F, "NR > 1 { if (!($cond)) { print \"  row \" NR-1 \": \" \$0; bad = 1 } } END { exit bad }"; then
    pass=$((pass + 1))
  else
    echo "FAIL: $name"
    fail=$((fail + 1))
  fi
}
same() { # same NAME A B
  if [ "$2" = "$3" ]; then pass=$((pass + 1)); else echo "FAIL: $1: '$2' vs '$3'"; fail=$((fail + 1)); fi
}
expect() { # expect CODE 'REGEX' ARGS...: exit code and one "impactfit: error:" line matching REGEX
  local want=$1 re=$2
  shift 2
  "$BIN" "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  if [ "$got" != "$want" ] || [ "$(grep -c '' "$TMP/err")" != 1 ] || ! grep -q "^impactfit: error: .*$re" "$TMP/err"; then
    echo "FAIL: impactfit $* -> exit $got (want $want), stderr:"; cat "$TMP/err"; fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}
col() { # col NAME: the column's index (1-based) in the CSV header on stdin
  head -1 | tr ',' '\n' | grep -n -x "$1" | cut -d: -f1
}

# ---- the impedance law with a constant impedance: exact Kelvin-Voigt ----
M=0.002
K=2500 # sqrt(K) = 50
IMP="--law impedance --M $M --K $K --d0 0.9 --dwidth 0.9 --mass $M"
for tr in A C; do
  "$BIN" simulate $IMP --B 10:90:9 --v 0.5 --transition $tr --csv >"$TMP/kv.csv" || { echo "FAIL: impedance grid $tr"; fail=$((fail + 1)); }
  cb=$(col B <"$TMP/kv.csv"); ce=$(col e_out <"$TMP/kv.csv"); ct=$(col t_contact <"$TMP/kv.csv"); cz=$(col zeta <"$TMP/kv.csv")
  check "impedance, constant d, $tr: e = Kelvin-Voigt's" \
    "(x = \$$cb / 100) && (s = sqrt(1 - x * x)) && (w = (\"$tr\" == \"A\") ? exp(-3.141592653589793 * x / s) : exp(-2 * x * atan2(s, x) / s)) && (d = \$$ce - w) * d < (2e-11 * (w > 0.01 ? w : 0.01))^2 && \$$cz == x" <"$TMP/kv.csv"
  [ "$tr" = A ] && check "impedance, constant d, A: the contact lasts pi/(d sqrt(K) s)" \
    "(x = \$$cb / 100) && (t = 3.141592653589793 / (0.9 * 50 * sqrt(1 - x * x))) && (d = \$$ct / t - 1) * d < 1e-18" <"$TMP/kv.csv"
done
# the inverse: B for e under A is 2 sqrt(K) xi(e) exactly; under C the exact e of the B found is e
"$BIN" zhang-alpha $IMP --v 0.5 --e 0.05,0.3,0.6,0.9 --transition A --csv >"$TMP/inv.csv"
ce=$(col e <"$TMP/inv.csv"); cl=$(col lambda <"$TMP/inv.csv"); cz=$(col zeta <"$TMP/inv.csv")
check "impedance inverse, A: B = 2 sqrt(K) xi(e)" \
  "(l = log(\$$ce)) && (x = -l / sqrt(9.869604401089358 + l * l)) && (d = \$$cl / (100 * x) - 1) * d < 1e-18 && (d = \$$cz / x - 1) * d < 1e-18" <"$TMP/inv.csv"
"$BIN" zhang-alpha $IMP --v 0.5 --e 0.15,0.3,0.6,0.9 --csv >"$TMP/inv.csv" # e > exp(-2): xi < 1
check "impedance inverse, C: the exact e of the B found" \
  "(x = \$$cl / 100) && (s = sqrt(1 - x * x)) && (w = exp(-2 * x * atan2(s, x) / s)) && (d = w - \$$ce) * d < (1.1e-10 * (\$$ce < 1 - \$$ce ? \$$ce : 1 - \$$ce))^2" <"$TMP/inv.csv"
# --set NAME=VALUE is the option --NAME VALUE
a=$("$BIN" simulate $IMP --B 30 --v 0.5 --json)
b=$("$BIN" simulate --law impedance --set M=$M --set K=$K --set d0=0.9 --set=dwidth=0.9 --mass $M --set B=30 --v 0.5 --json)
same "--set NAME=V = --NAME V" "$a" "$b"

# ---- the impedance law with MuJoCo's defaults (varying d) against the long double RK4 ----
MJ="--law impedance --M 0.001309 --B 105.26315789473685 --K 2770.083102493075 --mass 0.001309"
"$BIN" simulate $MJ --v 0.02,0.1,1 --csv >"$TMP/mj.csv"
cv=$(col v <"$TMP/mj.csv"); ce=$(col e_out <"$TMP/mj.csv")
check "impedance, MuJoCo's default solimp, e vs the long double RK4 of tests/test_law.c" \
  "(w = (\$$cv == 0.02) ? 0.135452790815383 : (\$$cv == 0.1) ? 0.137711310767255 : 0.135696702488226) && (d = \$$ce - w) * d < 4e-18" <"$TMP/mj.csv"

# ---- the approach damper with m = (n - 1)/2: the exact prefactor ----
# g(x) = acos(x)/sqrt(1 - x^2), continued as acosh(x)/sqrt(x^2 - 1) above x = 1
AD="--law approach-damper --n 1.5 --m 0.25 --k 2e8 --mass 0.3 --v 0.7"
G='(x < 1 ? atan2(sqrt(1 - x * x), x) / sqrt(1 - x * x) : log(x + sqrt(x * x - 1)) / sqrt(x * x - 1))' # x != 1
for tr in A C; do
  "$BIN" simulate $AD --c 1000:100000:7 --transition $tr --csv >"$TMP/ad.csv"
  cc=$(col c <"$TMP/ad.csv"); ce=$(col e_out <"$TMP/ad.csv")
  check "approach damper m = (n-1)/2, $tr: e = exp(-xi acos(xi)/sqrt(1 - xi^2))" \
    "(x = \$$cc / sqrt(2 * 2.5 * 0.3 * 2e8)) && (w = exp(-x * $G)) && (d = \$$ce - w) * d < (1e-10 * w)^2" <"$TMP/ad.csv"
done
"$BIN" zhang-alpha $AD --e 0.2,0.5,0.85 --csv >"$TMP/adi.csv"
ce=$(col e <"$TMP/adi.csv"); cl=$(col lambda <"$TMP/adi.csv")
check "approach damper inverse: the exact e of the c found" \
  "(x = \$$cl / sqrt(2 * 2.5 * 0.3 * 2e8)) && (w = exp(-x * $G)) && (d = w - \$$ce) * d < (1.1e-10 * (\$$ce < 1 - \$$ce ? \$$ce : 1 - \$$ce))^2" <"$TMP/adi.csv"

# ---- the power law by name is impact.h's engine ----
for f in e_out t_contact f_max delta_max delta_sep rhs_evals; do
  a=$("$BIN" simulate --law power --n 1.3 --m 0.5 --c 0.7 --k 3 --mass 2 --v 0.4 --json | sed "s/.*\"$f\":\([^,}]*\).*/\1/")
  b=$("$BIN" simulate --n 1.3 --m 0.5 --c 0.7 --k 3 --mass 2 --v 0.4 --json | sed "s/.*\"$f\":\([^,}]*\).*/\1/")
  same "power by name = simulate: $f" "$a" "$b"
done

# ---- sweep files by name, and a fit on their output ----
cat >"$TMP/imp_impact.ini" <<EOF
[sweep]
problem = law-impact
[fixed]
law = impedance
transition = A
M = $M
K = $K
d0 = 0.9
dwidth = 0.9
mass = $M
v = 0.5
[axes]
B = list 5, 50, 95
EOF
"$BIN" sweep "$TMP/imp_impact.ini" --out "$TMP/sw" --quiet >/dev/null 2>&1 || { echo "FAIL: law-impact sweep file"; fail=$((fail + 1)); }
same "law-impact columns are the law's" "$(head -1 "$TMP/sw/imp_impact.csv")" \
  "index,M,B,K,d0,dwidth,width,midpoint,power,rscale,g,mass,v,e_out,t_contact,delta_max,f_max,delta_sep,zeta,status,rhs_evals"
cb=$(col B <"$TMP/sw/imp_impact.csv"); ce=$(col e_out <"$TMP/sw/imp_impact.csv")
check "law-impact sweep file: Kelvin-Voigt e under A" \
  "(x = \$$cb / 100) && (w = exp(-3.141592653589793 * x / sqrt(1 - x * x))) && (d = \$$ce - w) * d < (2e-11 * (w > 0.01 ? w : 0.01))^2" <"$TMP/sw/imp_impact.csv"
cat >"$TMP/imp_damping.ini" <<EOF
; B(e) of the impedance law with a constant impedance under A: zeta = -ln e/sqrt(pi^2 + ln^2 e)
[sweep]
problem = law-damping
outputs = B, zeta, e_out
[fixed]
law = impedance
transition = A
M = $M
K = $K
d0 = 0.9
dwidth = 0.9
mass = $M
[axes]
e = linear 0.1, 0.9, 9
EOF
cat >"$TMP/imp_fit.ini" <<EOF
[fit]
name = imp_fit
sweep = imp_damping.ini
[stage xi]
data = sweep
x = e
y = zeta
form = formula
formula = -log(e) / sqrt(a + log(e)^2)
constants = a
start = 9
EOF
"$BIN" sweep "$TMP/imp_damping.ini" --out "$TMP/sw" --quiet >/dev/null 2>&1 || { echo "FAIL: law-damping sweep file"; fail=$((fail + 1)); }
same "law-damping columns" "$(head -1 "$TMP/sw/imp_damping.csv")" "index,M,e,K,d0,dwidth,width,midpoint,power,rscale,g,mass,v,B,zeta,e_out,status,rhs_evals"
if "$BIN" fit "$TMP/imp_fit.ini" --data "$TMP/sw" --quiet >"$TMP/fit.out" 2>&1; then
  a=$(sed -n 's/^ *\* *a *= *\([0-9.e+-]*\).*/\1/p' "$TMP/sw/imp_fit.h" | head -1)
  awk -v a="$a" 'BEGIN { d = a / 9.869604401089358 - 1; exit !(a != "" && d * d < 1e-18) }' && pass=$((pass + 1)) ||
    { echo "FAIL: the fit of zeta(e) gives a = $a, not pi^2"; fail=$((fail + 1)); }
else
  echo "FAIL: fit on a law-damping sweep"; cat "$TMP/fit.out"; fail=$((fail + 1))
fi

# ---- any named parameter: --solve, --lo, --hi ----
"$BIN" zhang-alpha --law impedance --M $M --B 30 --d0 0.9 --dwidth 0.9 --mass $M --e 0.4 --solve K --lo 100 --hi 1e5 --transition A --csv >"$TMP/k.csv"
ck=$(col K <"$TMP/k.csv")
check "--solve K under A: B/(2 sqrt(K)) = xi(0.4)" \
  "(l = log(0.4)) && (x = -l / sqrt(9.869604401089358 + l * l)) && (d = 30 / (2 * sqrt(\$$ck)) / x - 1) * d < 1e-18" <"$TMP/k.csv"

# ---- errors: one line, exit 2 ----
expect 2 "unknown force law 'impedence'.*did you mean 'impedance'" simulate --law impedence --B 1
expect 2 "--M, --B, --K are required" simulate --law impedance --mass 1
expect 2 "law 'impedance' has no parameter 'k'" simulate --law impedance --M 1 --B 1 --K 1 --set k=2
expect 2 "parameter B given twice" simulate --law impedance --M 1 --B 1 --K 1 --set B=2
# solimp values MuJoCo clamps are clamped as it does (issue 39 item 10); rscale must be > 0
expect 2 "rscale must be > 0" simulate --law impedance --M 1 --B 1 --K 1 --rscale 0
expect 2 "--k, --mass and --v" simulate --law power --n 1.5 --c 1 --set k=2
expect 2 "no parameter 'q'" zhang-alpha --law power --n 1.5 --e 0.5 --solve q
expect 2 "--c is what is solved for" zhang-alpha --law power --n 1.5 --c 1 --e 0.5
expect 2 "searched over \[1e-9, 1e6\]" zhang-alpha --law power --n 1.5 --e 0.5 --lo 1
expect 2 "needs lo" zhang-alpha --law power --n 1.5 --c 0.3 --e 0.5 --solve m
expect 2 "unknown force law" sweep /dev/stdin <<<$'[sweep]\nproblem = law-impact\n[fixed]\nlaw = nosuch\n[axes]\nc = list 1'
expect 2 "unknown parameter 'K' of problem law-impact" sweep /dev/stdin <<<$'[sweep]\nproblem = law-impact\n[fixed]\nlaw = power\nn = 1\n[axes]\nK = list 1'

echo "test_laws.sh: $pass checks passed, $fail failures"
[ "$fail" = 0 ]
