#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Run YADE on head-on collisions and print the measured restitution (DEM harness, issue 14).

usage: run_yade.py CASES.json [--code yade] [--keep DIR] [--yade BIN] [--steps-per-contact N]
                   [--single] [--timeout S]

CASES.json is a JSON list of cases:
  {"code": "yade", "geometry": "sphere-sphere" | "sphere-wall",
   "r1": m, "r2": m (sphere-sphere), "rho1": kg/m^3, "rho2": kg/m^3 (sphere-sphere),
   "E": Pa, "nu": -, "v": m/s (relative normal approach speed; the sphere's speed against the wall),
   "input": "<Python text defining mat, ip2 and law2>",
   "dt": s (optional: run at exactly this step, once),
   "wall": "wall" | "facet" | "box" (optional, sphere-wall only; default "wall" = utils.wall),
   "hertzian": true | false (optional; Ig2_Wall_Sphere_ScGeom / Ig2_Facet_Sphere_ScGeom(hertzian=...))}
E and nu only size the first (pilot) step; the material is the one the input text defines.
Printed on stdout: a JSON list, one result per case in the same order, with the keys
  e          relative normal velocity after separation / before (from velocities, after separation)
  t_contact  from the first touch (t = 0, overlap 0) to the time the overlap returns to 0, located
             between steps from the force-free motion after separation
  t_force    from the first touch to the end of the normal force (the force is clamped at zero before
             the overlap ends), located between steps from the last two nonzero forces; null if it
             could not be resolved to a step (cases with their own "dt")
  dt         the time step used (of the finer run when extrapolated); steps = t_contact / dt rounded;
             steps_run = steps of that run of the scene
  extrapolated  true: e, t_contact and t_force are 2 x(dt) - x(2 dt) from two runs at dt and 2 dt,
             whose raw e are e_dt and e_2dt (YADE's leapfrog error in e is first order in dt: measured,
             see the notes); false: the raw measurement at dt
  phys       the contact constants YADE computed (MindlinPhys: betan, kno, ...; ViscElPhys: kn, cn, ...)
             and R_eff = R1 R2 / (R1 + R2) from YADE's contact geometry
  wall       the wall body kind (sphere-wall) or null
  version    from YADE's own banner ("Welcome to Yade 2023.02a")

All cases run in ONE YADE process (YADE starts in about 2 s): the cases with the same input text (and wall
kind) share scenes, as independent body pairs far apart, all touching at t = 0 (overlap exactly 0). A pilot
run at ~400 steps per contact measures every contact; the pairs are then grouped into scenes of similar
contact time, each with dt = its shortest contact / N. Default: N = 2e4 and each scene also run at dt/2,
the result extrapolated (error in e below 1e-6 on the checked matrix); --single: one run at N = 1e5 (error
in e up to ~1e-5 at e = 0.1). The gravity is zero and NewtonIntegrator.damping = 0 (YADE's default 0.2
would change e).

Exit status: 0 every case ran; 77 YADE is not installed (message on stderr); 1 the run failed (YADE's log
tail on stderr); 2 invalid cases or options.
"""
import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCENE = os.path.join(HERE, "yade_scene.py")


def fail(msg, status=2):
    sys.stderr.write("run_yade.py: error: %s\n" % msg)
    sys.exit(status)


def hertz_contact_time(c):
    """Elastic Hertz contact time 2.9432 delta_max / v, an estimate to size the pilot run."""
    def mass(r, rho):
        return rho * 4.0 / 3.0 * math.pi * r ** 3
    m1 = mass(c["r1"], c["rho1"])
    if c["geometry"] == "sphere-sphere":
        m2 = mass(c["r2"], c["rho2"])
        meff = m1 * m2 / (m1 + m2)
        reff = c["r1"] * c["r2"] / (c["r1"] + c["r2"])
    else:
        meff, reff = m1, c["r1"]
    estar = c["E"] / (2.0 * (1.0 - c["nu"] ** 2))
    dmax = (15.0 * meff * c["v"] ** 2 / (16.0 * estar * math.sqrt(reff))) ** 0.4
    return 2.9432 * dmax / c["v"]


def positive(c, key, i):
    x = c.get(key)
    if not isinstance(x, (int, float)) or isinstance(x, bool) or not math.isfinite(x) or x <= 0:
        fail("case %d: '%s' must be a positive number" % (i, key))
    return float(x)


def check_case(c, i):
    if not isinstance(c, dict):
        fail("case %d is not a JSON object" % i)
    if c.get("code", "yade") != "yade":
        fail("case %d: code '%s' is not yade" % (i, c.get("code")))
    geom = c.get("geometry")
    if geom not in ("sphere-sphere", "sphere-wall"):
        fail("case %d: geometry must be sphere-sphere or sphere-wall" % i)
    out = {"index": i, "geometry": geom}
    keys = ["r1", "rho1", "E", "v"] + (["r2", "rho2"] if geom == "sphere-sphere" else [])
    for k in keys:
        out[k] = positive(c, k, i)
    nu = c.get("nu")
    if not isinstance(nu, (int, float)) or not (-1.0 < nu < 0.5):
        fail("case %d: 'nu' must be a number in (-1, 0.5)" % i)
    out["nu"] = float(nu)
    if not isinstance(c.get("input"), str) or not c["input"].strip():
        fail("case %d: 'input' must be the YADE Python text defining mat, ip2 and law2" % i)
    if c.get("dt") is not None:
        out["dt"] = positive(c, "dt", i)
    wall = c.get("wall", "wall")
    if wall not in ("wall", "facet", "box"):
        fail("case %d: 'wall' must be wall, facet or box" % i)
    hertzian = c.get("hertzian", False)
    if not isinstance(hertzian, bool):
        fail("case %d: 'hertzian' must be true or false" % i)
    out["tc_est"] = hertz_contact_time(out)
    return out, (c["input"], wall if geom == "sphere-wall" else "wall", hertzian)


def main():
    ap = argparse.ArgumentParser(description="Run YADE on head-on collisions (see the module docstring).")
    ap.add_argument("cases")
    ap.add_argument("--code", default="yade")
    ap.add_argument("--keep", metavar="DIR", help="keep the scene input, YADE's log and output in DIR")
    ap.add_argument("--yade", default=os.environ.get("IMPACTFIT_YADE", "yade"), help="YADE executable")
    ap.add_argument("--steps-per-contact", type=float, default=None,
                    help="N: dt = shortest contact of the scene / N; default 2e4, with --single 1e5")
    ap.add_argument("--single", action="store_true",
                    help="one run per scene at dt (no extrapolation from dt and dt/2)")
    ap.add_argument("--timeout", type=float, default=1800.0)
    a = ap.parse_args()
    if a.code != "yade":
        fail("--code must be yade (LAMMPS and LIGGGHTS: run_lammps.py)")
    if a.steps_per_contact is None:
        a.steps_per_contact = 1e5 if a.single else 2e4
    if not (a.steps_per_contact >= 100):
        fail("--steps-per-contact must be >= 100")
    exe = shutil.which(a.yade)
    if exe is None:
        sys.stderr.write("run_yade.py: SKIP: YADE ('%s') is not installed "
                         "(bash scripts/deps.sh dem installs it)\n" % a.yade)
        sys.exit(77)
    try:
        with open(a.cases) as f:
            raw = json.load(f)
    except (OSError, ValueError) as err:
        fail("cannot read %s: %s" % (a.cases, err))
    if not isinstance(raw, list) or not raw:
        fail("%s must hold a non-empty JSON list of cases" % a.cases)
    groups = {}
    order = []
    for i, c in enumerate(raw):
        case, key = check_case(c, i)
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(case)
    spec = {"steps_per_contact": a.steps_per_contact, "extrapolate": not a.single,
            "groups": [{"input": k[0], "wall": k[1], "hertzian": k[2], "cases": groups[k]} for k in order]}

    work = os.path.abspath(a.keep) if a.keep else tempfile.mkdtemp(prefix="run_yade.")
    os.makedirs(work, exist_ok=True)
    inp, outp, logp = (os.path.join(work, n) for n in ("scenes.json", "results.json", "yade.log"))
    with open(inp, "w") as f:
        json.dump(spec, f, indent=1)
    if os.path.exists(outp):
        os.remove(outp)
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    env["OMP_NUM_THREADS"] = "1"
    try:
        with open(logp, "w") as log:
            fd = env.get("IMPACTFIT_PROGRESS_FD", "")  # the progress protocol: yade_scene.py counts
            proc = subprocess.run([exe, "-n", "-j1", "-x", SCENE, inp, outp], stdout=log,
                                  stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env,
                                  timeout=a.timeout, cwd=work, pass_fds=(int(fd),) if fd.isdigit() else ())
        status = proc.returncode
    except subprocess.TimeoutExpired:
        status = "timeout after %g s" % a.timeout
    with open(logp, errors="replace") as f:
        logtext = f.read()
    if status != 0 or not os.path.exists(outp):
        sys.stderr.write("run_yade.py: YADE failed (status %s); log tail:\n" % status)
        sys.stderr.write("\n".join(logtext.splitlines()[-30:]) + "\n")
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
        sys.exit(1)
    with open(outp) as f:
        out = json.load(f)
    banner = re.search(r"Welcome to Yade (\S+)", logtext)
    version = banner.group(1) if banner else out.get("version", "unknown")
    res = []
    for i in range(len(raw)):
        r = out["results"][str(i)]
        r["version"] = version
        res.append(r)
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)
    json.dump(res, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
