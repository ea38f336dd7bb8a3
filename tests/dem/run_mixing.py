#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Two materials and several sizes in one LAMMPS or LIGGGHTS run: every type pair's typed lines, measured.

usage: python3 tests/dem/run_mixing.py SCENARIOS.json [--keep DIR]

SCENARIOS.json (written by tests/dem/mixing_cases, impactfit's side) is a JSON list of scenarios
  {"code": "lammps"|"liggghts", "name": ..., "lines": [the contact-model lines as a user types them, for
   atom types 1 and 2], "rho": [rho_1, rho_2] (kg/m^3),
   "collisions": [{"t1": 1|2, "t2": 1|2, "r1": m, "r2": m, "v": m/s, "e": impactfit's e, "tol": ..., "what": ...,
   "estar": the pair's E* as the code computes it (for the time step)}]}
Each scenario is one run of the code: atom types 1 and 2 (the two materials), every collision a head-on pair of
spheres of those types and radii, the pairs far apart along x, run until every pair has separated (as
tests/dem/run_lammps.py does: velocity Verlet, dt = the shortest Hertz contact time of the run / 100000). The
measured e = relative normal velocity after / before is compared with impactfit's e within the collision's
tolerance. Prints one line per collision; exit 0 when every one agrees, 1 when one does not, 77 when the code is
not installed, 2 for an invalid file.
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_lammps as rl  # noqa: E402  (the dump reader and the binaries)

STEPS_PER_CONTACT = 100000


def hertz_tc(r1, r2, rho1, rho2, estar, v):
    m1, m2 = rl.sphere_mass(r1, rho1), rl.sphere_mass(r2, rho2)
    reff, meff = r1 * r2 / (r1 + r2), m1 * m2 / (m1 + m2)
    dmax = (15.0 * meff * v * v / (16.0 * estar * math.sqrt(reff))) ** 0.4
    return 2.868 * dmax / v


def script(sc, dt, dump, chunk, max_loops):
    code = sc["code"]
    col = sc["collisions"]
    rmax = max(max(c["r1"], c["r2"]) for c in col)
    vmax = max(c["v"] for c in col)
    spacing = 6.0 * rmax
    zhalf = 4.0 * rmax + vmax * max_loops * chunk * dt * 1.2 + 0.01
    L = ["units si"]
    if code == "lammps":
        L.append("atom_style sphere")
    else:
        L += ["atom_style granular", "hard_particles yes", "soft_particles yes", "newton off",
              "communicate single vel yes"]
    L += ["atom_modify map array", "boundary f f f",
          "region box block %r %r %r %r %r %r units box" % (-spacing, spacing * (len(col) + 1), -spacing, spacing,
                                                             -zhalf, zhalf),
          "create_box 2 box"]
    for k, c in enumerate(col, start=1):
        r1, r2, v = c["r1"], c["r2"], c["v"]
        m1, m2 = rl.sphere_mass(r1, sc["rho"][c["t1"] - 1]), rl.sphere_mass(r2, sc["rho"][c["t2"] - 1])
        gap = 4 * v * dt
        x = spacing * k
        L.append("create_atoms %d single %r 0.0 %r units box" % (c["t1"], x, -(r1 + gap / 2)))
        L.append("set atom %d diameter %r density %r vz %r" % (2 * k - 1, 2 * r1, sc["rho"][c["t1"] - 1],
                                                                v * m2 / (m1 + m2)))
        L.append("create_atoms %d single %r 0.0 %r units box" % (c["t2"], x, r2 + gap / 2))
        L.append("set atom %d diameter %r density %r vz %r" % (2 * k, 2 * r2, sc["rho"][c["t2"] - 1],
                                                            -v * m1 / (m1 + m2)))
    L += sc["lines"]
    L += ["neighbor %r bin" % (0.5 * rmax), "neigh_modify delay 0 every 1 check yes"]
    if code == "lammps":
        L.append("comm_modify vel yes")
    L += ["timestep %r" % dt, "fix nve all nve/sphere", "compute cc all contact/atom",
          "variable ic atom c_cc>0", "variable nr atom (vz*z)<=0", "compute ric all reduce sum v_ic",
          "compute rnr all reduce sum v_nr", "variable ninc equal c_ric", "variable nrev equal c_rnr",
          "thermo %d" % chunk, "thermo_style custom step c_ric c_rnr"]
    L.append("dump d all custom %d %s id type vz vz" % (chunk, dump))
    L.append("dump_modify d format float %.17g" if code == "lammps" else 'dump_modify d format "%d %d %.17g %.17g"')
    if code == "lammps":
        L += ["variable done equal (c_rnr==0)&&(c_ric==0)", "fix stop all halt %d v_done == 1 error continue" % chunk,
              "run %d" % (max_loops * chunk)]
    else:
        L += ["variable loop loop %d" % max_loops, "label again", "run %d" % chunk,
              'if "${nrev} == 0 && ${ninc} == 0" then "jump SELF done"', "next loop", "jump SELF again",
              "label done"]
    L.append('print "IMPACTFIT_DONE"')
    return "\n".join(L) + "\n"


def run(sc, workdir):
    col = sc["collisions"]
    tcs = [hertz_tc(c["r1"], c["r2"], sc["rho"][c["t1"] - 1], sc["rho"][c["t2"] - 1], c["estar"], c["v"]) for c in col]
    dt = min(tcs) / STEPS_PER_CONTACT
    chunk = max(200, int(max(tcs) / dt / 8))
    max_loops = 8 * 40 + 20
    d = os.path.join(workdir, sc["code"] + "_" + str(abs(hash(sc["name"])) % 10 ** 8))
    os.makedirs(d, exist_ok=True)
    dump = os.path.join(d, "out.dump")
    inp = os.path.join(d, "in.run")
    with open(inp, "w") as f:
        f.write(script(sc, dt, dump, chunk, max_loops))
    log = os.path.join(d, "log.txt")
    p = subprocess.run([rl.BINARIES[sc["code"]], "-in", inp, "-log", log, "-screen", "none"], cwd=d,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    text = open(log).read() if os.path.exists(log) else p.stdout
    if p.returncode != 0 or "IMPACTFIT_DONE" not in text or "ERROR" in text:
        raise rl.RunError("%s failed in %s:\n%s" % (sc["code"], d, "\n".join((text + p.stdout).splitlines()[-20:])))
    frames = rl.read_dump(dump)
    last = frames[max(frames)]
    out = []
    for k, c in enumerate(col, start=1):
        out.append((last[2 * k][0] - last[2 * k - 1][0]) / c["v"])
    return out, dt


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("scenarios")
    ap.add_argument("--keep")
    a = ap.parse_args()
    try:
        scs = json.load(open(a.scenarios))
    except (OSError, ValueError) as ex:
        print("run_mixing: %s" % ex, file=sys.stderr)
        return 2
    codes = {sc["code"] for sc in scs}
    for code in codes:
        if shutil.which(rl.BINARIES[code]) is None:
            print("run_mixing: SKIP: %s is not installed (bash scripts/deps.sh dem)" % rl.BINARIES[code])
            return 77
    work = a.keep or tempfile.mkdtemp(prefix="impactfit_mixing_")
    bad = 0
    try:
        for sc in scs:
            got, dt = run(sc, work)
            print("%s: %s (dt %.3g s)" % (sc["code"], sc["name"], dt))
            for c, e in zip(sc["collisions"], got):
                ok = abs(e - c["e"]) <= c["tol"]
                bad += not ok
                print("  %-46s types %d-%d r %5.1f %5.1f mm v %4.2g m/s: %s e %.9f, impactfit %.9f (|diff| %.1e, "
                      "tol %.0e)" % (c["what"], c["t1"], c["t2"], 1e3 * c["r1"], 1e3 * c["r2"], c["v"],
                                     "OK  " if ok else "FAIL", e, c["e"],
                    abs(e - c["e"]), c["tol"]))
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
