#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Two 5 mm glass-like spheres (E = 1e8 Pa, nu = 0.3, rho = 2500 kg/m^3) collide head-on at 1 m/s in LAMMPS,
# with the contact-model lines that `impactfit dem` prints for the restitution you ask (default 0.5):
# the deck below is an ordinary LAMMPS input; only the two pair lines come from impactfit.
# usage: examples/dem/lammps_two_spheres.sh [E_ASKED] [IMPACTFIT] [LMP]
set -eu
E=${1:-0.5}
BIN=${2:-impactfit}
LMP=${3:-lmp}
command -v "$LMP" >/dev/null || { echo "lammps_two_spheres.sh: SKIPPED: $LMP not installed (bash scripts/deps.sh dem)"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# the lines to paste, for LAMMPS 29 Sep 2021 pair_style granular hertz/material with damping tsuji; the
# tangential clause is the user's own (here Mindlin's, friction 0.5): impactfit keeps it in the line
"$BIN" dem --code lammps --model "granular hertz/material" --damping tsuji --tangential "mindlin NULL 1.0 0.5" \
  --E 1e8 --nu 0.3 --radius 0.005 --density 2500 --pair --e "$E" --v 1 --json >"$TMP/dem.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["input"] if d["reachable"] else d["alternative"]["input"], end="")' \
  "$TMP/dem.json" >"$TMP/pair.lmp"
cat >"$TMP/in.collide" <<LMPIN
units           si
atom_style      sphere
atom_modify     map array
boundary        f f f
region          box block -0.05 0.05 -0.05 0.05 -0.05 0.05
create_box      1 box
create_atoms    1 single -0.005001 0 0
create_atoms    1 single  0.005001 0 0
set             atom * diameter 0.01 density 2500
group           left id 1
group           right id 2
velocity        left set 0.5 0 0
velocity        right set -0.5 0 0
include         $TMP/pair.lmp
comm_modify     vel yes
neighbor        0.001 bin
fix             move all nve/sphere
timestep        4e-9
variable        e equal (vx[2]-vx[1])/1.0
thermo          1000000
run             400000
print           "restitution e = \${e}"
LMPIN
"$LMP" -log "$TMP/log" -in "$TMP/in.collide" >"$TMP/out" 2>&1 || { tail "$TMP/out"; exit 1; }
echo "pasted into LAMMPS:"
sed 's/^/    /' "$TMP/pair.lmp"
grep '^restitution e' "$TMP/out"
