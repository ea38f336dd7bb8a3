#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CLI checks for the Zhang et al. (2021) work: `impactfit surrogate zhang-c|zhang-a` options, sweeps
# of the zhang-alpha problem (bad definitions exit 2, a point without solution exits 1, one
# "impactfit: error:" line), and `impactfit reproduce --topic zhang --quick`, whose regenerated
# zhang2021.h must equal the committed one, and `impactfit check --topic zhang`.
set -u
BIN=${1:?usage: test_zhang.sh path/to/impactfit SOURCE_DIR}
SRC=${2:?}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
pass=0

expect() { # expect CODE ARGS...: exit code; on failure exactly one 'impactfit: error:' line
  local want=$1
  shift
  "$BIN" "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL: impactfit $* -> exit $got, want $want"; cat "$TMP/err"; fail=$((fail + 1)); return
  fi
  if [ "$want" != 0 ]; then
    if [ "$(grep -c '' "$TMP/err")" != 1 ] || ! grep -q '^impactfit: error: ' "$TMP/err"; then
      echo "FAIL: impactfit $* -> stderr is not one 'impactfit: error:' line:"; cat "$TMP/err"
      fail=$((fail + 1)); return
    fi
  fi
  pass=$((pass + 1))
}

# ---- surrogate: invalid options exit 2 (before any build) ----
expect 2 surrogate --out "$TMP/never.h"
expect 2 surrogate zhang-b --out "$TMP/never.h"
expect 2 surrogate zhang-c --drop -1 --out "$TMP/never.h"
expect 2 surrogate zhang-c --drop 0.5 --out "$TMP/never.h"
expect 2 surrogate zhang-c --drop abc --out "$TMP/never.h"
expect 2 surrogate copt --drop 1e-9 --out "$TMP/never.h"
expect 2 surrogate zhang-c --deg-n -1 --out "$TMP/never.h"
expect 2 surrogate zhang-a --deg-t 0 --out "$TMP/never.h"
expect 2 surrogate zhang-a --deg-r 500 --out "$TMP/never.h"
expect 2 surrogate zhang-c --check -5 --out "$TMP/never.h"
expect 2 surrogate zhang-c --deg-m 3 --deg-m 4 --out "$TMP/never.h"
"$BIN" surrogate --help | grep -q 'zhang-c' || { echo "FAIL: surrogate --help"; fail=$((fail + 1)); }

# ---- sweeps of zhang-alpha ----
def() { # def NAME BODY: a definition file
  printf '[sweep]\nproblem = zhang-alpha\n%b' "$2" >"$TMP/$1.ini"
}
def bad_tr '[fixed]\nn = 1.5\nm = 0.25\ntransition = B\n[axes]\ne = list 0.5\n'
def bad_e '[fixed]\nn = 1.5\nm = 0.25\n[axes]\ne = list 0.5, 1\n'
def bad_n '[fixed]\nn = -1\nm = 0.25\n[axes]\ne = list 0.5\n'
def bad_method '[fixed]\nn = 1.5\nm = 0.25\nmethod = newton\n[axes]\ne = list 0.5\n'
def no_m '[fixed]\nn = 1.5\n[axes]\ne = list 0.5\n'
def bad_k '[fixed]\nn = 1.5\nm = 0.25\nk = 0\n[axes]\ne = list 0.5\n'
def nosol '[fixed]\nn = 1.5\nm = 0\ntransition = A\n[axes]\ne = list 0.5, 1e-11\n'
def good '[fixed]\nn = 1.5\nm = 0.25\ntransition = A\nk = 2.4144e10\nmass = 0.54\nv = 0.3\n[axes]\ne = linear 0.1, 0.9, 9\n'
for d in bad_tr bad_e bad_n bad_method no_m bad_k; do
  expect 2 sweep "$TMP/$d.ini" --out "$TMP"
done
expect 1 sweep "$TMP/nosol.ini" --out "$TMP"
grep -q ',ENOROOT,' "$TMP/nosol.csv" || { echo "FAIL: the failed row says ENOROOT"; fail=$((fail + 1)); }
grep -q 'ENOROOT' "$TMP/err" || { echo "FAIL: the error line names the status"; fail=$((fail + 1)); }
expect 0 sweep "$TMP/good.ini" --out "$TMP"
head -1 "$TMP/good.csv" | grep -q 'alpha,lambda_star,e_out,zeta,lambda,iterations' || { echo "FAIL: zhang-alpha columns"; fail=$((fail + 1)); }
[ "$(grep -c ',OK,' "$TMP/good.csv")" = 9 ] || { echo "FAIL: 9 OK rows expected"; fail=$((fail + 1)); }
# the sweep's alpha equals zhang-alpha's for the same point (same solver, isolated vs run)
a_sweep=$(awk -F, 'NR==6 {print $9}' "$TMP/good.csv")
a_cli=$("$BIN" zhang-alpha --n 1.5 --m 0.25 --e 0.5 --transition A --csv | awk -F, 'NR==2 {print $5}')
awk -v a="$a_sweep" -v b="$a_cli" 'BEGIN { d = a / b - 1; if (d < 0) d = -d; exit !(d < 1e-8) }' ||
  { echo "FAIL: sweep alpha $a_sweep vs zhang-alpha $a_cli"; fail=$((fail + 1)); }

# ---- the report topic ----
expect 0 reproduce --topic zhang --quick --out "$TMP/rep" --src "$SRC"
# (a quick run writes the header into the report directory only when it differs from the committed one)
[ ! -e "$TMP/rep/zhang2021.h" ] && grep -q 'zhang2021.h is what the code regenerates | yes | regenerated: byte-identical' "$TMP/rep/REPORT.md" ||
  { echo "FAIL: regenerated zhang2021.h differs from the committed header"; fail=$((fail + 1)); }
n_svg=$(find "$TMP/rep" -name 'zhang*.svg' -size +1k | wc -l)
[ "$n_svg" -ge 6 ] || { echo "FAIL: zhang figures missing ($n_svg)"; fail=$((fail + 1)); }
grep -q 'Verdict: the published fits for m < n describe condition A' "$TMP/rep/REPORT.md" ||
  { echo "FAIL: verdict missing from the report"; fail=$((fail + 1)); }
grep -q '| zhang | .* | \*\*no\*\* |' "$TMP/rep/REPORT.md" && { echo "FAIL: a zhang target is missed"; fail=$((fail + 1)); }
expect 0 check --topic zhang --src "$SRC"

echo "test_zhang.sh: $pass passed, $fail failed"
[ "$fail" = 0 ]
