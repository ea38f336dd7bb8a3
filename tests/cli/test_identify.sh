#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CLI checks for identify and identify-synth: malformed data files (each must exit 2 with one
# "impactfit: error: FILE:LINE: reason" line and nothing on stdout), bad options, and runs checked
# against independent facts: the true parameters of synthetic data (exact data: recovered to 1e-6;
# the shipped noisy data set: within 2.5 standard errors), the shipped file regenerated from the
# command recorded in its header, the unidentifiable one-velocity case, and the README's worked
# example against the program's current output.
set -u
BIN=${1:?usage: test_identify.sh path/to/impactfit SOURCE_DIR}
SRC=${2:?usage: test_identify.sh path/to/impactfit SOURCE_DIR}
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
    echo "FAIL: impactfit $* -> exit $got, want $want"; cat "$TMP/err"; fail=$((fail + 1)); return 1
  fi
  if [ "$want" != 0 ]; then
    if [ "$nerr" != 1 ] || grep -qv '^impactfit: error: ' "$TMP/err"; then
      echo "FAIL: impactfit $* -> stderr is not one 'impactfit: error:' line:"; cat "$TMP/err"
      fail=$((fail + 1)); return 1
    fi
    if [ "$want" = 2 ] && [ -s "$TMP/out" ]; then
      echo "FAIL: impactfit $* -> printed on stdout despite invalid input"; fail=$((fail + 1)); return 1
    fi
  elif [ -s "$TMP/err" ]; then
    echo "FAIL: impactfit $* -> wrote to stderr on success:"; cat "$TMP/err"; fail=$((fail + 1)); return 1
  fi
  pass=$((pass + 1))
}

# bad_csv NAME 'CONTENT' LINE 'REASON': identify on the file exits 2 with "NAME:LINE: ...REASON..."
bad_csv() {
  local f="$TMP/$1"
  printf '%b' "$2" >"$f"
  expect 2 identify "$f" --model hc --mass 0.1 || return
  if ! grep -qF "impactfit: error: $f:$3: " "$TMP/err" || ! grep -qF -- "$4" "$TMP/err"; then
    echo "FAIL: $1: want '$f:$3: ... $4', got:"; cat "$TMP/err"; fail=$((fail + 1)); pass=$((pass - 1))
  fi
}

check() { # check 'DESCRIPTION' COMMAND...: the command must succeed
  local what=$1
  shift
  if "$@"; then pass=$((pass + 1)); else echo "FAIL: $what"; fail=$((fail + 1)); fi
}

# relclose A B TOL: |A - B| <= TOL |B|
relclose() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; s = b < 0 ? -b : b;
  exit !(a != "" && b != "" && d <= t * s) }'; }
# within A TRUTH SE K: |A - TRUTH| <= K SE (SE > 0)
within() { awk -v a="$1" -v t="$2" -v s="$3" -v k="$4" 'BEGIN { d = a - t; if (d < 0) d = -d;
  exit !(a != "" && s > 0 && d <= k * s) }'; }
# field NAME: the number after "NAME": in the first line of the JSON on stdin
field() { head -n 1 | sed -n "s/.*\"$1\":\([-0-9.eE+]*\).*/\1/p"; }

# ---- malformed data files: file, line and reason ----
bad_csv empty.csv '' 1 'empty file'
bad_csv comments.csv '# nothing\n\n' 2 'empty file'
bad_csv header_only.csv 'v,e,dt\n' 1 'no data rows'
bad_csv no_e.csv 'v,dt\n1,1e-4\n' 1 'missing column e'
bad_csv no_v.csv 'e,dt\n0.5,1e-4\n' 1 'missing column v'
bad_csv unknown.csv 'v,e,force\n1,0.5,3\n' 1 "unknown column 'force'"
bad_csv dup.csv 'v,e,e\n1,0.5,0.5\n' 1 "duplicate column 'e'"
bad_csv emptyname.csv 'v,e,\n1,0.5,1\n' 1 'empty column name'
bad_csv fields.csv 'v,e\n1,0.5\n2,0.4,7\n' 3 '3 fields'
bad_csv text.csv 'v,e\n1,0.5\n2,abc\n' 3 "column e: 'abc' is not a number"
bad_csv comma_decimal.csv 'v;e\n1;0,5\n' 1 "unknown column 'v;e'"
bad_csv emptyfield.csv 'v,e,dt\n1,,1e-4\n' 2 'column e: empty field'
bad_csv nan.csv 'v,e\nnan,0.5\n' 2 'not a finite number'
bad_csv inf.csv 'v,e,fmax\n1,0.5,inf\n' 2 'not a finite number'
bad_csv negv.csv '# a drop\nv,e\n1,0.5\n-2,0.5\n' 4 'the approach velocity must be > 0'
bad_csv zerov.csv 'v,e\n0,0.5\n' 2 'the approach velocity must be > 0'
bad_csv e_big.csv 'v,e\n1,1.2\n' 2 'the coefficient of restitution must be in (0, 1]'
bad_csv e_zero.csv 'v,e\n1,0\n' 2 '(0, 1]'
bad_csv dt_zero.csv 'v,e,dt\n1,0.5,0\n' 2 'the contact duration must be > 0'
bad_csv fmax_neg.csv 'v,e,fmax\n1,0.5,-1\n' 2 'the peak force must be > 0'
bad_csv crlf.csv 'v,e\r\n1,0.5\r\n1,2\r\n' 3 '(0, 1]'
long=$(printf '%*s' 1100 '')
bad_csv long.csv "v,e\n1,0.5$long\n" 2 'longer than 1024'
printf 'v,e,mass\n1,0.5,0\n' >"$TMP/mass0.csv"
expect 2 identify "$TMP/mass0.csv" --model hc --fix k=1e9
grep -qF "$TMP/mass0.csv:2: column mass: the effective mass must be > 0" "$TMP/err" ||
  { echo "FAIL: mass0.csv message"; cat "$TMP/err"; fail=$((fail + 1)); }
printf 'v,e\n1,0.\0005\n' >"$TMP/nul.csv"
expect 2 identify "$TMP/nul.csv" --model hc --mass 1 --fix k=1e9
grep -qF "$TMP/nul.csv:2: NUL byte" "$TMP/err" || { echo "FAIL: NUL message"; cat "$TMP/err"; fail=$((fail + 1)); }
expect 2 identify "$TMP/does-not-exist.csv" --model hc --mass 1
grep -qF "$TMP/does-not-exist.csv" "$TMP/err" || { echo "FAIL: missing file not named"; fail=$((fail + 1)); }
expect 2 identify "$TMP" --model hc --mass 1

# ---- a small valid file for the option checks ----
printf 'v,e,dt\n0.5,0.9,1e-4\n1,0.8,9e-5\n2,0.7,8e-5\n' >"$TMP/ok.csv"
printf 'v,e,dt,mass\n0.5,0.9,1e-4,0.1\n1,0.8,9e-5,0.1\n' >"$TMP/okm.csv"
printf 'v,e\n0.5,0.9\n1,0.8\n' >"$TMP/eonly.csv"
expect 2 identify
expect 2 identify "$TMP/ok.csv"
expect 2 identify "$TMP/ok.csv" --mass 0.1
expect 2 identify "$TMP/ok.csv" --model nosuch --mass 0.1
expect 2 identify "$TMP/ok.csv" "$TMP/ok.csv" --model hc --mass 0.1
expect 2 identify "$TMP/ok.csv" --model hc
expect 2 identify "$TMP/ok.csv" --model hc --mass 0
expect 2 identify "$TMP/ok.csv" --model hc --mass -1
expect 2 identify "$TMP/ok.csv" --model hc --mass abc
expect 2 identify "$TMP/okm.csv" --model hc --mass 0.1
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --fix m=1
expect 2 identify "$TMP/ok.csv" --model linear --mass 0.1 --fix m=0
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --fix n
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --fix n=
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --fix n=x
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --fix n=1,n=2
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --fix c=1,lambda=2
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --fix q=1
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --fix n=-1
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --fix k=0
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --fix n=1,,k=2
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --bounds n=2:1
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --bounds n=1
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --bounds n=0:2
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --bounds m=0:2
expect 2 identify "$TMP/ok.csv" --model zhang --mass 0.1 --bounds m=-1:2
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --weights e=-1
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --weights fmax=1
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --weights e=0,dt=0
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --weights x=1
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --transition E
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --global nosuch
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --maxeval 0
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --seed -1
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --box-factor 1
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --per-row-m 1
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --per-row --per-row-m -1
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --json=1
expect 2 identify "$TMP/ok.csv" --model hc --mass 0.1 --bogus
expect 2 identify "$TMP/eonly.csv" --model hc --mass 0.1
grep -q 'k cannot be identified from e alone' "$TMP/err" || { echo "FAIL: e-only message"; cat "$TMP/err"; fail=$((fail + 1)); }
expect 0 identify --help
grep -q 'usage: impactfit identify DATA.csv' "$TMP/out" || { echo "FAIL: identify --help"; fail=$((fail + 1)); }

# ---- identify-synth: invalid input ----
S="--model hc --params n=1.5,k=5e9,lambda=2e9 --v 0.5:3:6 --mass 0.064"
expect 2 identify-synth
expect 2 identify-synth --model hc --params n=1.5,k=5e9,lambda=2e9 --v 1
expect 2 identify-synth --model hc --params n=1.5,k=5e9 --v 1 --mass 1
expect 2 identify-synth --model hc --params n=1.5,m=1,k=5e9,lambda=1 --v 1 --mass 1
expect 2 identify-synth --model zhang --params n=1.5,k=5e9,lambda=1 --v 1 --mass 1
expect 2 identify-synth --model nosuch --params n=1.5,k=5e9,lambda=1 --v 1 --mass 1
expect 2 identify-synth $S --noise 0.6
expect 2 identify-synth $S --noise -0.1
expect 2 identify-synth $S --repeat 0
expect 2 identify-synth $S --columns dt,force
expect 2 identify-synth $S --columns dt,,fmax
expect 2 identify-synth $S --seed x
expect 2 identify-synth --model hc --params n=1.5,k=5e9,lambda=2e9 --v -1,1 --mass 1
expect 2 identify-synth --model hc --params n=0,k=5e9,lambda=2e9 --v 1 --mass 1
expect 2 identify-synth $S --output /nonexistent/dir/x.csv
expect 0 identify-synth --help

# ---- the shipped data set is what its recorded command produces ----
DATA="$SRC/tests/data/drop_test.csv"
cmd=$(sed -n '2s/^#   impactfit //p' "$DATA")
# shellcheck disable=SC2086
check "regenerate drop_test.csv" "$BIN" $cmd --output "$TMP/regen.csv"
check "regenerated drop_test.csv equals the shipped file (1e-9)" awk -F, '
  NR == FNR { if ($0 !~ /^#/) a[FNR] = $0; next }
  $0 !~ /^#/ { if (!(FNR in a)) exit 1; n = split(a[FNR], x, ","); if (n != NF) exit 1;
    for (i = 1; i <= NF; i++) if (x[i] != $i) { if (x[i] + 0 == 0) exit 1; d = (x[i] - $i) / x[i];
      if (d < 0) d = -d; if (d > 1e-9) exit 1 } ; m++ }
  END { exit !(m == 19) }' "$DATA" "$TMP/regen.csv"

# ---- the shipped data: the true parameters (README) within 2.5 standard errors ----
if expect 0 identify "$DATA" --model hc --mass 0.064 --json; then
  n=$(field n <"$TMP/out"); sn=$(field se_n <"$TMP/out")
  k=$(field k <"$TMP/out"); sk=$(field se_rel_k <"$TMP/out")
  l=$(field lambda <"$TMP/out"); sl=$(field se_rel_lambda <"$TMP/out")
  check "drop_test: n = $n within 2.5 SE ($sn) of 1.5" within "$n" 1.5 "$sn" 2.5
  lk=$(awk -v x="$k" 'BEGIN { print log(x) }'); ll=$(awk -v x="$l" 'BEGIN { print log(x) }')
  check "drop_test: k = $k within 2.5 SE of 5e9" within "$lk" "$(awk 'BEGIN { print log(5e9) }')" "$sk" 2.5
  check "drop_test: lambda = $l within 2.5 SE of 2e9" within "$ll" "$(awk 'BEGIN { print log(2e9) }')" "$sl" 2.5
  check "drop_test: no warning" grep -q '"warnings":0' "$TMP/out"
  check "drop_test: 1 fit line + 18 rows" test "$(grep -c '' "$TMP/out")" = 19
  check "drop_test: 3 free, 51 dof" grep -q '"residuals":54,"dof":51' "$TMP/out"
fi
# the Zhang model on the same data finds m = n (Hunt-Crossley) within 2.5 SE
if expect 0 identify "$DATA" --model zhang --mass 0.064 --json; then
  m=$(field m <"$TMP/out"); sm=$(field se_m <"$TMP/out")
  check "drop_test zhang: m = $m within 2.5 SE ($sm) of 1.5" within "$m" 1.5 "$sm" 2.5
fi
# the linear damper does not describe these data: the misfit warning
expect 0 identify "$DATA" --model linear --mass 0.064
check "drop_test linear: misfit warning" grep -q '^warning: the misfit is large' "$TMP/out"

# ---- exact synthetic data: parameters recovered to 1e-6 (10-digit CSV) ----
expect 0 identify-synth --model linear --params n=1.3,k=8e7,c=150 --v 0.4:2.5:5 --mass 0.05 \
  --columns dt,fmax,mass --output "$TMP/lin.csv"
if expect 0 identify "$TMP/lin.csv" --model linear --json; then
  check "linear exact: n" relclose "$(field n <"$TMP/out")" 1.3 1e-6
  check "linear exact: k" relclose "$(field k <"$TMP/out")" 8e7 1e-6
  check "linear exact: c" relclose "$(field c <"$TMP/out")" 150 1e-6
fi
expect 0 identify-synth --model zhang --params n=1.5,m=0.8,k=5e9,lambda=1e7 --v 0.5:2:4 --mass 0.064 \
  --output "$TMP/zh.csv"
if expect 0 identify "$TMP/zh.csv" --model zhang --mass 0.064 --fix m=0.8 --global direct --json; then
  check "zhang exact, m fixed: n" relclose "$(field n <"$TMP/out")" 1.5 1e-6
  check "zhang exact, m fixed: lambda" relclose "$(field lambda <"$TMP/out")" 1e7 1e-6
  check "zhang exact: m reported fixed" grep -q '"m":0.8,"free_m":0' "$TMP/out"
fi
# per row: with Hunt-Crossley data every row's exact lambda is the true lambda
expect 0 identify-synth --model hc --params n=1.5,k=5e9,lambda=2e9 --v 0.5:3:4 --mass 0.064 --columns dt \
  --output "$TMP/hc.csv"
if expect 0 identify "$TMP/hc.csv" --model hc --mass 0.064 --per-row --json; then
  check "per-row: 4 rows with lambda_hc" test "$(grep -c '"lambda_hc":' "$TMP/out")" = 4
  bad=$(sed -n 's/.*"lambda_hc":\([-0-9.eE+]*\).*/\1/p' "$TMP/out" |
    awk '{ d = ($1 - 2e9) / 2e9; if (d < 0) d = -d; if (d > 1e-6) print }')
  check "per-row: lambda_hc = 2e9 (1e-6) in every row" test -z "$bad"
fi
expect 0 identify "$TMP/hc.csv" --model hc --mass 0.064 --per-row --per-row-m 0.5
check "per-row text table" grep -q "damping that reproduces each row's e exactly" "$TMP/out"

# ---- one velocity, e and dt only: n, k, lambda flagged as not identifiable ----
expect 0 identify-synth --model hc --params n=1.5,k=5e9,lambda=2e9 --v 1.2 --repeat 3 --mass 0.064 \
  --noise 0.01 --columns dt --output "$TMP/onev.csv"
if expect 0 identify "$TMP/onev.csv" --model hc --mass 0.064 --json; then
  check "one velocity: n not identifiable" grep -q '"identifiable_n":0' "$TMP/out"
  check "one velocity: se_n null" grep -q '"se_n":null' "$TMP/out"
  check "one velocity: warning line" grep -q '"type":"warning","message":"not identifiable: n, k, lambda can change together' "$TMP/out"
fi
expect 0 identify "$TMP/onev.csv" --model hc --mass 0.064 --fix n=1.5
check "one velocity, n fixed: identifiable, no warning" bash -c "! grep -q '^warning' '$TMP/out'"

# ---- the worked example of docs/IDENTIFICATION.md matches the program ----
README="$SRC/docs/IDENTIFICATION.md"
if expect 0 identify "$DATA" --model hc --mass 0.064; then
  for p in n k lambda; do
    got=$(awk -v p="$p" '$1 == p { print $2; exit }' "$TMP/out")
    doc=$(awk -v p="$p" '/^    \$ impactfit identify tests\/data\/drop_test.csv --model hc --mass 0.064$/ { on = 1; next }
      on && $1 == p { print $2; exit }' "$README")
    check "docs/IDENTIFICATION.md example: $p = $doc (program: $got)" relclose "$got" "$doc" 1e-6
  done
fi

echo "test_identify.sh: $pass passed, $fail failed"
[ "$fail" = 0 ]
