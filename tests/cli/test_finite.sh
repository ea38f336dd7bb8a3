#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# No NaN, infinity or null with exit 0 (issue 39's class): the numerical commands of the engine and
# the inverse (simulate, simulate --law, copt, zhang-alpha, zhang-alpha --law, hc-eps) on grids out to
# the ends of what they accept (n from 0.05 to 10, m from 0 to 5, damping from 1e-300 to strong,
# e from 1e-12 to 1). Each grid is one command with --json: every row whose status is OK has only
# finite numbers, no row of another status passes for success (exit 0 only when every row is OK), and
# exit 1 comes with one error line per failed point.
# usage: test_finite.sh path/to/impactfit
set -u
BIN=${1:?usage: test_finite.sh path/to/impactfit}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
pass=0

check() { # check ARGS...: one grid command
  "$BIN" "$@" --json --threads 1 --quiet >"$TMP/out" 2>"$TMP/err"
  local rc=$?
  if ! python3 - "$rc" "$TMP/out" "$TMP/err" "$*" <<'EOF'; then
import json, math, sys
rc, out, err, what = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
bad = []
rows = [json.loads(l) for l in open(out) if l.strip()]
not_ok = 0
for r in rows:
    ok = r.get("status", "OK") == "OK"
    not_ok += not ok
    if ok:
        for k, v in r.items():
            if v is None or (isinstance(v, float) and not math.isfinite(v)):
                bad.append(f"{k} = {v} in an OK row: {r}")
if rc not in (0, 1):
    bad.append(f"exit {rc}")
if rc == 0 and not_ok:
    bad.append(f"exit 0 with {not_ok} rows not OK")
if rc == 1 and not not_ok:
    bad.append("exit 1 without a failed row")
if not rows:
    bad.append("no rows")
errs = [l for l in open(err) if l.strip() and not l.startswith("impactfit: note:")]
if rc == 1 and (len(errs) != not_ok or any(not l.startswith("impactfit: error: ") for l in errs)):
    bad.append(f"{not_ok} failed rows, {len(errs)} error lines")
for b in bad:
    print(f"FAIL: impactfit {what}: {b}")
sys.exit(1 if bad else 0)
EOF
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}

check simulate --n 0.05,1,10 --m 0,1e-12,5 --c 1e-300,0,1 --transition A,C
check simulate --n 1.5 --m 0,1 --c 1e-300,1e3 --k 1e12 --mass 1e-6 --v 1e-3 --transition A,C
for tr in A C; do
  check simulate --law approach-damper --n 0.3,1,3 --m 0,1e-9,0.5 --c 1e-300,1,1e3 --transition $tr
  check zhang-alpha --n 1,3 --m 0,2 --e 1e-4,0.5,0.999999,0.999999999 --transition $tr
done
check simulate --law power --n 0.3,1,3 --m 0,1e-9,3 --c 1e-300,1,1e3 --transition C
check copt --n 1,2.5 --e 1e-6,0.01,0.5,0.999999999,1
check zhang-alpha --n 1.5 --m 1.5 --e 1e-6,1e-3 --method nlopt
check zhang-alpha --law approach-damper --n 0.3,3 --m 0,0.5 --e 1e-3,0.5,0.99999
check hc-eps --e 1e-12,1e-6,0.5,0.999999999999,1

echo "test_finite: $pass grids passed, $fail failed"
[ "$fail" = 0 ]
