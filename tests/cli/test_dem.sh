#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# CLI checks of `impactfit dem` (one command with `impactfit engine`: the default integrator is continuous
# time): unknown codes, versions, models and damping options exit 2 with one "impactfit: error:" line that
# lists what is known; a setting the model does not take is refused, naming its settings; invalid numbers
# exit 2; the JSON object has the keys the documentation promises; the naive predictions reproduce the restitutions measured in the real codes
# (Debian 12: LAMMPS 29Sep2021, LIGGGHTS 3.8.0, YADE 2023.02a; the issue's table, printed digits);
# a model that cannot reach e says so (exit 0, reachable 0) and offers another model's line.
set -u
BIN=${1:?usage: test_dem.sh path/to/impactfit}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail=0
pass=0
M=(--E 1e8 --nu 0.3 --radius 0.005 --density 2500 --pair --v 1)

expect() { # expect CODE PATTERN ARGS...: exit CODE; on error one line matching PATTERN
  local want=$1 pat=$2
  shift 2
  "$BIN" dem "$@" >"$TMP/out" 2>"$TMP/err"
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL: impactfit dem $* -> exit $got, want $want"; cat "$TMP/err"; fail=$((fail + 1)); return
  fi
  if [ "$want" != 0 ]; then
    if [ "$(grep -c '' "$TMP/err")" != 1 ] || ! grep -q "^impactfit: error: .*$pat" "$TMP/err" || [ -s "$TMP/out" ]; then
      echo "FAIL: impactfit dem $* -> want one error line matching '$pat', got:"; cat "$TMP/err" "$TMP/out"
      fail=$((fail + 1)); return
    fi
  fi
  pass=$((pass + 1))
}

expect 2 "known: lammps, liggghts, yade, chrono" --code pfc --model x "${M[@]}" --e 0.5
expect 2 "known: 'granular hertz/material'" --code lammps --model "granular foo" "${M[@]}" --e 0.5
expect 2 "needs a damping option: 'en', 'betan' (e.g. --damping en" --code yade --model mindlin "${M[@]}" --e 0.5
expect 2 "known: 'tsuji', 'velocity'" --code lammps --model "granular hertz/material" --damping coeff "${M[@]}" --e 0.5
expect 2 "read for the versions 17Apr2024 and later; 29Sep2021 is not among them.*give the version 17Apr2024" --code lammps --version 29Sep2021 --model "granular hertz/material" --damping coeff_restitution "${M[@]}" --e 0.5
expect 2 "cannot read version" --code liggghts --version banana --model hertz "${M[@]}" --e 0.5
expect 2 "known: 'hertz'" --code liggghts --version 3.8.0 --model hertzz "${M[@]}" --e 0.5
expect 2 "got 1.5" --code liggghts --model hertz "${M[@]}" --e 1.5
expect 2 "--e is required" --code liggghts --model hertz "${M[@]}"
expect 2 "gran/hooke has no setting 'E' (its settings: kn, Kt, gamma_t, xmu, dampflag)" --code lammps --model gran/hooke "${M[@]}" --e 0.5
expect 2 "needs kn" --code lammps --model gran/hooke --radius 0.005 --density 2500 --v 1 --e 0.5
expect 2 "has no setting 'tc' (its settings: kn, Kt, gamma_t, xmu, dampflag)" --code lammps --model gran/hooke --kn 2e4 --tc 1e-3 --radius 0.005 --density 2500 --v 1 --e 0.5
expect 2 "has no setting 'vchar' (its settings: E, nu, coefficientFriction)" --code liggghts --model hertz "${M[@]}" --vchar 1 --e 0.5
expect 2 "--wall: the wall is not a body; --r2, --rho2 and --m2 do not apply" --code lammps --model gran/hooke --kn 2e4 --wall --r1 0.004 --r2 0.008 --density 2500 --v 1 --e 0.5
expect 2 "give --radius or --r1, not both" --code lammps --model gran/hooke --kn 2e4 --radius 0.004 --r1 0.008 --density 2500 --v 1 --e 0.5
expect 2 "fix wall/gran takes one material" --code lammps --model hertz/material --damping tsuji --E 1e8,2e8 --nu 0.3 --radius 0.005 --density 2500 --v 1 --e 0.5
expect 2 "unknown tangential model 'bogus'" --code lammps --model hertz/material --damping tsuji --E 1e8 --nu 0.3 --radius 0.005 --density 2500 --v 1 --e 0.5 --tangential "bogus 1 2"
expect 2 "has no tangential clause" --code yade --model mindlin --damping en --E 1e8 --nu 0.3 --radius 0.005 --density 2500 --v 1 --e 0.5 --tangential history
expect 2 "--e11: the 1-1 pair's e must be in (0, 1)" --code lammps --model hertz/material --damping tsuji --E 1e8 --nu 0.3 --radius 0.005 --density 2500 --v 1 --e 0.5 --e11 1.5
expect 2 "did you mean 'granular hertz/material'" --code lammps --model "granular hertz/materail" --damping tsuji "${M[@]}" --e 0.5
expect 2 "did you mean 'tsuji'" --code lammps --model "granular hertz/material" --damping tsuij "${M[@]}" --e 0.5
expect 2 "did you mean 'lammps'" --code lamps --model x "${M[@]}" --e 0.5
expect 2 "always clamps" --code yade --model mindlin --damping en --limit off "${M[@]}" --e 0.5
expect 2 "on or off" --code lammps --model gran/hooke --kn 2e4 --limit maybe --radius 0.005 --density 2500 --v 1 --e 0.5
expect 2 "v-range" --code liggghts --model hertz "${M[@]}" --e 0.5 --v-range 1
# a size range (--radius-range A,B; the issue's --radius A:B and --v A:B name the range options)
HK=(--code lammps --model "granular hooke" --damping velocity --kn 2e4 --density 2500 --e 0.5)
expect 2 "for a size range give --radius-range A,B as well" "${HK[@]}" --radius 0.002:0.01 --v 1
expect 2 "for a size range give --radius-range A,B as well" "${HK[@]}" --radius 0.005 --r2 0.002:0.01 --v 1
expect 2 "give --v-range A,B as well (e.g. --v 1 --v-range 0.1,3)" "${HK[@]}" --radius 0.005 --v 0.1:3
expect 2 "--radius-range A,B needs 0 < A <= B (m), got 0.01,0.002" "${HK[@]}" --radius 0.005 --v 1 --radius-range 0.01,0.002
expect 2 "--radius-range takes two radii A,B in m (got 1 values)" "${HK[@]}" --radius 0.005 --v 1 --radius-range 0.002
expect 2 "--radius-range: expected" "${HK[@]}" --radius 0.005 --v 1 --radius-range 0.002,x
expect 2 "not --meff and --reff" --code lammps --model "granular hooke" --damping velocity --kn 2e4 --meff 0.001 --reff 0.003 --e 0.5 --v 1 --radius-range 0.002,0.01
expect 2 "points per axis of the box: 2 to 64 (got 65)" "${HK[@]}" --radius 0.005 --v 1 --radius-range 0.002,0.01 --points 65
expect 2 "give --radius-range A,B for body 1 as well" "${HK[@]}" --radius 0.005 --pair --v 1 --r2-range 0.001,0.002
expect 2 "--r2-range: the wall is not a body" "${HK[@]}" --radius 0.005 --wall --v 1 --radius-range 0.002,0.01 --r2-range 0.001,0.002
expect 2 "body 2's size range (r2_min, r2_max) is for two spheres" "${HK[@]}" --radius 0.005 --v 1 --radius-range 0.002,0.01 --r2-range 0.001,0.002
expect 2 "--r2-range A,B needs 0 < A <= B (m)" "${HK[@]}" --radius 0.005 --pair --v 1 --radius-range 0.002,0.01 --r2-range 0.002,0.001
expect 2 "--drop: --radius-range does not apply" --code mujoco --mass 0.001309 --radius 0.005 --e 0.5 --drop 1 --radius-range 0.002,0.01
expect 0 "" --list
expect 0 "" --code liggghts --model hertz "${M[@]}" --e 0.5

# json field NAME (numbers and strings) of the object in $TMP/out
field() { python3 -c 'import json,sys; v=json.load(open(sys.argv[1]))[sys.argv[2]]; print(v if not isinstance(v,list) else " ".join(map(str,v)))' "$TMP/out" "$1"; }
close() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d <= t) }'; }
check() { # check WHAT GOT WANT TOL
  if close "$2" "$3" "$4"; then pass=$((pass + 1)); else echo "FAIL: $1: got $2, want $3 (tol $4)"; fail=$((fail + 1)); fi
}

# every documented key
"$BIN" dem --code lammps --model "granular hertz/material" --damping tsuji "${M[@]}" --e 0.5 --json >"$TMP/out"
# (one interpreter for all keys: a python3 start costs seconds on a loaded machine)
missing=$(python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); print(" ".join(k for k in sys.argv[2:] if k not in o))' \
  "$TMP/out" code version model damping e_asked input value e_naive e_range note reachable end K n m R M C zeta source)
[ -z "$missing" ] && pass=$((pass + 1)) || { echo "FAIL: JSON keys missing: $missing"; fail=$((fail + 1)); }
grep -q 'damping tsuji' <<<"$(field input)" && pass=$((pass + 1)) || { echo "FAIL: input line"; fail=$((fail + 1)); }

# the issue's table: e typed -> e measured in the real codes (the digits printed there)
row() { # row TOL WANT ARGS...
  local tol=$1 want=$2
  shift 2
  "$BIN" dem "$@" "${M[@]}" --json >"$TMP/out" || { echo "FAIL: dem $*"; fail=$((fail + 1)); return; }
  check "e_naive of $*" "$(field e_naive)" "$want" "$tol"
}
row 6e-6 0.099999 --code liggghts --model hertz --e 0.1
row 6e-6 0.25273 --code liggghts --model hertz --limit on --e 0.1
row 6e-6 0.55028 --code liggghts --model hertz --limit on --e 0.5
row 6e-5 0.2350 --code lammps --model "granular hertz/material" --damping tsuji --e 0.1
row 6e-5 0.9284 --code lammps --model "granular hertz/material" --damping tsuji --e 0.9
row 6e-5 0.6458 --code lammps --model "granular hertz/material" --damping tsuji --limit on --e 0.5
row 6e-6 0.10008 --code yade --model mindlin --damping en --e 0.1
row 6e-6 0.89992 --code yade --model mindlin --damping en --e 0.9
row 6e-5 0.9789 --code yade --model mindlin --damping en --e 0.99

# out of reach: LAMMPS tsuji needs e >~ 0.11; LIGGGHTS hertz with limitForce on needs e >~ 0.21
"$BIN" dem --code lammps --model "granular hertz/material" --damping tsuji "${M[@]}" --e 0.1 --json >"$TMP/out"
check "tsuji e = 0.1 reachable" "$(field reachable)" 0 0
python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["alternative"]; sys.exit(not (a["input"] and abs(a["e_range"][0]-0.1)<1e-9))' "$TMP/out" \
  && pass=$((pass + 1)) || { echo "FAIL: tsuji e = 0.1: no alternative"; fail=$((fail + 1)); }
"$BIN" dem --code liggghts --model hertz --limit on "${M[@]}" --e 0.2 --json >"$TMP/out"
check "liggghts limitForce on e = 0.2 reachable" "$(field reachable)" 0 0
# the forward mode agrees with the inverse
"$BIN" dem --code lammps --model gran/hertz/history --kn 7.3e7 --radius 0.005 --density 2500 --pair --v 1.7 --e 0.4 --json >"$TMP/out"
val=$(field value)
"$BIN" dem --code lammps --model gran/hertz/history --kn 7.3e7 --radius 0.005 --density 2500 --pair --v 1.7 --value "$val" --json >"$TMP/out"
check "forward of the inverse" "$(field e_real)" 0.4 1e-9

# the effective mass and radius directly give the same as the bodies they stand for
M_EFF=$(python3 -c 'import math; m = 4/3*math.pi*0.005**3*2500; print(repr(m/2))')
"$BIN" dem --code lammps --model gran/hertz/history --kn 7.3e7 --meff "$M_EFF" --reff 0.0025 --pair --v 1.3 --e 0.6 --json >"$TMP/out"
v1=$(field value)
"$BIN" dem --code lammps --model gran/hertz/history --kn 7.3e7 --radius 0.005 --density 2500 --pair --v 1.3 --e 0.6 --json >"$TMP/out"
check "--meff --reff against the bodies" "$v1" "$(field value)" "$(awk -v v="$v1" 'BEGIN { print 1e-12 * v }')"
expect 2 "give both meff (the effective mass, kg) and reff" --code lammps --model gran/hooke --kn 2e4 --meff 1 --e 0.5 --v 1
expect 2 "not both" --code lammps --model gran/hooke --kn 2e4 --meff 1 --reff 0.1 --radius 0.1 --e 0.5 --v 1
# one bodies convention: a sphere on a wall by default, --mass the sphere's own mass
"$BIN" dem --code lammps --model gran/hooke --kn 2e4 --radius 0.005 --mass 0.001 --v 1 --e 0.5 --json >"$TMP/out"
check "the default is a wall: M = --mass" "$(field M)" 0.001 0
"$BIN" dem --code lammps --model gran/hooke --kn 2e4 --radius 0.005 --mass 0.001 --pair --v 1 --e 0.5 --json >"$TMP/out"
check "--pair: M = mass/2" "$(field M)" 0.0005 1e-18

# issue 28 finding 1: the note says "exact at every speed (m = (n - 1)/2)" whenever speed_dependent is 0,
# for two spheres and a wall alike, and a speed range of such a model prints no spread
for geo in "" "--wall"; do
  for args in "--code lammps --model 'granular hertz/material' --damping tsuji ${M[*]}" \
    "--code liggghts --model hertz ${M[*]}" "--code yade --model mindlin --damping en ${M[*]}" \
    "--code chrono --model hooke ${M[*]}" "--code lammps --model gran/hooke --kn 2e4 --radius 0.005 --density 2500 --pair --v 1"; do
    # shellcheck disable=SC2086
    eval "set -- $args"
    if [ -n "$geo" ]; then # --wall instead of --pair
      a=()
      for x in "$@"; do [ "$x" = --pair ] || a+=("$x"); done
      set -- "${a[@]}"
    fi
    "$BIN" dem "$@" $geo --e 0.5 --v-range 0.1,10 >"$TMP/txt" 2>&1
    "$BIN" dem "$@" $geo --e 0.5 --v-range 0.1,10 --json >"$TMP/out" 2>&1
    if grep -q '"speed_dependent":0[,}]' "$TMP/out" && grep -q '^# exact at every speed (m = (n - 1)/2)' "$TMP/txt" &&
      ! grep -q 'exact at v =\|from 0.5 to 0.5\|over v in' "$TMP/txt" &&
      grep -q '"note":"exact at every speed (m = (n - 1)/2)' "$TMP/out"; then
      pass=$((pass + 1))
    else
      echo "FAIL: dem $args $geo: speed-independent note"; cat "$TMP/txt"; fail=$((fail + 1))
    fi
  done
done
# and a speed-dependent model gives the spread
"$BIN" dem --code lammps --model gran/hertz/history --kn 7.3e7 --radius 0.005 --density 2500 --pair --e 0.5 --v 1 \
  --v-range 0.2,5 >"$TMP/txt"
grep -q '^# exact at v = 1 m/s only: .* gives e from 0\.[0-9]* to 0\.[0-9]* over v in \[0.2, 5\] m/s' "$TMP/txt" &&
  pass=$((pass + 1)) || { echo "FAIL: speed-dependent note"; cat "$TMP/txt"; fail=$((fail + 1)); }

# docs/DEM.md's quick start shows what the program prints
SRC=$(cd "$(dirname "$0")/../.." && pwd)
if [ -f "$SRC/docs/DEM.md" ]; then
  awk '/^## Quick start/ { q = 1 } q && /^    # lammps 29Sep2021/ { p = 1 } p && /^$/ { exit } p { print substr($0, 5) }' \
    "$SRC/docs/DEM.md" >"$TMP/doc"
  "$BIN" dem --code lammps --model "granular hertz/material" --damping tsuji --E 1e8 --nu 0.3 --radius 0.005 \
    --density 2500 --pair --e 0.5 --v 1 --tangential "mindlin NULL 1.0 0.5" >"$TMP/txt"
  [ -s "$TMP/doc" ] && cmp -s "$TMP/doc" "$TMP/txt" && pass=$((pass + 1)) ||
    { echo "FAIL: docs/DEM.md quick start differs from the program:"; diff "$TMP/doc" "$TMP/txt"; fail=$((fail + 1)); }
fi

# the JSON spread against independent forward solves of the CLI (--value at each corner's bodies and speed) and,
# for granular hooke with constant damping on a wall (end A), the damped oscillator's closed form
"$BIN" dem "${HK[@]}" --radius 0.005 --v 1 --radius-range 0.002,0.01 --v-range 0.5,2 --json >"$TMP/sp" 2>&1
if python3 - "$BIN" "$TMP/sp" <<'PY'
import json, math, subprocess, sys
b, a = sys.argv[1], json.load(open(sys.argv[2]))
sp, x = a["spread"], a["exact_model"]
ok = sp["r_range"] == [0.002, 0.01] and sp["v_range"] == [0.5, 2] and sp["evaluations"] == 25 and sp["exact"] == 0
ok = ok and x["model"] == "granular hooke" and x["damping"] == "tsuji" and abs(x["e_range"][0] - 0.5) < 1e-12
def fwd(model, damping, value, r, v):
    o = subprocess.run([b, "dem", "--code", "lammps", "--model", model, "--damping", damping, "--kn", "2e4",
                        "--density", "2500", "--radius", repr(r), "--v", repr(v), "--value", repr(value), "--json"],
                       capture_output=True, text=True, check=True).stdout
    return json.loads(o)["e_real"]
es = []
for c in sp["corners"]:
    e = fwd("granular hooke", "velocity", a["value"], c["r1"], c["v"])
    m = 4 / 3 * math.pi * c["r1"] ** 3 * 2500
    z = a["value"] / (2 * math.sqrt(2e4 * m))
    ok = ok and abs(e - c["e"]) < 1e-12 and abs(math.exp(-math.pi * z / math.sqrt(1 - z * z)) - c["e"]) < 1e-9
    ok = ok and abs(fwd("granular hooke", "tsuji", x["value"], c["r1"], c["v"]) - 0.5) < 1e-9
    es.append(e)
ok = ok and len(es) == 4 and abs(sp["e_min"] - min(es)) < 1e-15 and abs(sp["e_max"] - max(es)) < 1e-15
ok = ok and abs(sp["worst"] - max(abs(e - 0.5) for e in es)) < 1e-15 and sp["where"]["e_min"][0] == 0.002
sys.exit(0 if ok else 1)
PY
then pass=$((pass + 1)); else echo "FAIL: the JSON spread against forward solves"; cat "$TMP/sp"; fail=$((fail + 1)); fi
"$BIN" dem "${HK[@]}" --radius 0.005 --v 1 --radius-range 0.002,0.01 >"$TMP/txt" 2>&1
grep -q '^# exact at r = 0.005 m, v = 1 m/s only: one eta_n0 gives e from 0.006066 to 0.786623 over r in \[0.002, 0.01\] m (the sphere)' "$TMP/txt" &&
  grep -q '^# exact over the ranges: lammps granular hooke damping tsuji: type e = ' "$TMP/txt" &&
  grep -q '^pair_coeff \* \* hooke 20000 [0-9.]* damping tsuji' "$TMP/txt" &&
  grep -q '^#   corners (r1, r2 m; v m/s): (0.002, 0.002; 1) e = 0.0060661415, (0.01, 0.01; 1) e = 0.7866229077$' "$TMP/txt" &&
  grep -q '^# assumes: a size range 0.002 .. 0.01 m' "$TMP/txt" && pass=$((pass + 1)) ||
  { echo "FAIL: the size range's text"; cat "$TMP/txt"; fail=$((fail + 1)); }

echo "test_dem.sh: $pass passed, $fail failed"
[ "$fail" = 0 ]
