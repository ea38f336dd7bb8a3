#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The real DEM codes as the oracle of `impactfit dem` (ctest label dem-codes).

usage: python3 tests/dem/test_dem_codes.py IMPACTFIT [--code lammps|liggghts|yade ...] [--full] [--keep DIR]
                                           [--table FILE.json] [--jobs N]
(--jobs: up to N codes side by side, and up to N runs of LAMMPS or LIGGGHTS side by side (run_lammps.py --jobs);
 the runs are the same as with one job, so the results do not depend on N; the output is printed in the codes'
 order once every code is done)
(--table: {"rows": [one object per collision: code, model, damping, takes_e, limit, geometry, v, e_asked,
 typed, alternative, case, kind (naive or corrected), expected, measured, diff, dt, version, ok],
 "versions": {code: the code's banner, or "SKIPPED: why"}, "tol": TOL})

For every model of the registry that is run here (`impactfit dem --list --json`, run_here = 1) and each
setting of its force clamp (LAMMPS limit_damping, LIGGGHTS limitForce; YADE always clamps), head-on
collisions of two equal spheres, of unequal spheres (radii 5 and 3 mm, densities 2500 and 7800 kg/m^3)
and of a sphere against a wall, at 0.5, 1 and 2 m/s, with e in {0.1, 0.3, 0.5, 0.7, 0.9} cycled over the
nine geometry x speed combinations (every e, geometry and speed is met; --full runs the whole product), and
for the models that take e also the cases of the issue's table (equal spheres, 1 m/s, e = 0.1, 0.5, 0.9):
  - naive: the code's parameter typed as it is (e itself where the model takes e; half the exact damping
    constant where it takes one): the measured e must equal impactfit's prediction (`impactfit dem --value`);
  - corrected: the input printed by `impactfit dem --e` (or its alternative where the model cannot reach e):
    the measured e must equal the asked e.
Both within TOL = 1e-5 (the codes' time-step error at t_contact/1e5 is about 2e-6). The runners
(run_lammps.py, run_yade.py) batch the collisions into a few runs of each code. A code that is not installed
is reported as SKIPPED on stdout and stderr; with every code missing the exit status is 77 (ctest SKIP).
Exit 0 when every comparison holds, 1 otherwise (the failing rows are listed).
With IMPACTFIT_PROGRESS_FD=N in the environment, lines "step TOTAL UNIT WHAT" (a phase starts) and
"done COUNT" (how far it is) are written on file descriptor N, by this script and the runners
(`impactfit reproduce` draws its progress line from them).
"""
import argparse
import json
import re
import math
import os
import concurrent.futures
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOL = 1e-5
E_VALUES = (0.1, 0.3, 0.5, 0.7, 0.9)
ISSUE_E = (0.1, 0.5, 0.9)
SPEEDS = (0.5, 1.0, 2.0)
E_MAT, NU = 1e8, 0.3
GEOMS = {
    "equal": dict(geometry="sphere-sphere", r1=0.005, r2=0.005, rho1=2500.0, rho2=2500.0),
    "unequal": dict(geometry="sphere-sphere", r1=0.005, r2=0.003, rho1=2500.0, rho2=7800.0),
    "wall": dict(geometry="sphere-wall", r1=0.005, rho1=2500.0),
}
RUNNERS = {"lammps": "run_lammps.py", "liggghts": "run_lammps.py", "yade": "run_yade.py"}
NAMES = {"lammps": "LAMMPS", "liggghts": "LIGGGHTS", "yade": "YADE"}


# False while codes run side by side (--jobs): their phases would interleave, so main() reports codes done instead
PER_CODE_PROGRESS = True


def progress(line, overall=False):
    """A line of the progress protocol ("step TOTAL UNIT WHAT", "done COUNT") on the file descriptor
    IMPACTFIT_PROGRESS_FD names, when it is set (impactfit reproduce's topic dem-codes reads it to draw
    its progress line); nothing otherwise."""
    fd = os.environ.get("IMPACTFIT_PROGRESS_FD")
    if fd and (overall or PER_CODE_PROGRESS):
        try:
            os.write(int(fd), (line + "\n").encode())
        except (OSError, ValueError):
            pass


def progress_fds():
    """The descriptor of the progress protocol, for a child process (subprocess's pass_fds)."""
    fd = os.environ.get("IMPACTFIT_PROGRESS_FD", "")
    return (int(fd),) if fd.isdigit() and PER_CODE_PROGRESS else ()


def child_env():
    """The environment of a runner: without the progress descriptor while codes run side by side."""
    env = dict(os.environ)
    if not PER_CODE_PROGRESS:
        env.pop("IMPACTFIT_PROGRESS_FD", None)
    return env


def stiffness_args(m):
    """The contact's inputs for a model: the material, or a stiffness in the code's convention (kn_unit), chosen
    so that contacts last about 0.3 to 1 ms like the Hertz contact of the material."""
    if m["code"] == "yade" and m["model"] == "viscel" and m["damping"] == "en":
        return ["--tc", "5e-4"]
    if m["kn_unit"] == "Pa":
        return ["--kn", "7.3e7"]
    if m["kn_unit"] == "N/m":
        return ["--kn", "4e4" if m["code"] == "yade" else "2e4"]
    return ["--E", repr(E_MAT), "--nu", repr(NU)]


def friction_args(m):
    """The user's friction and tangential settings (docs/SCENE.md): real, non-zero ones, so that the run shows the
    head-on normal law does not depend on them (the registry's text keeps them in the pasted lines)."""
    code, model, damping = m["code"], m["model"], m["damping"]
    if code == "lammps" and model.startswith("granular "):
        return ["--tangential", "linear_history 1000 0.5 0.5"]
    if code == "lammps":
        return ["--xmu", "0.5", "--dampflag", "1"]
    if code == "liggghts":
        a = ["--tangential", "history", "--coefficientFriction", "0.5"]
        if m["kn_unit"]:
            a += ["--kt", "7.3e7" if m["kn_unit"] == "Pa" else "2e4",
                  "--gammat_abs" if damping == "absolute_damping" else "--gammat", "0.5"]
        return a
    if code == "yade":
        a = ["--frictionAngle", "0.5"]
        if model == "viscel":
            a += ["--et", "0.5"] if damping == "en" else ["--ks", "4e4", "--cs", "0.1"]
        return a
    return []


def geom_args(g):
    a = ["--r1", repr(g["r1"]), "--rho1", repr(g["rho1"])]
    if g["geometry"] == "sphere-wall":
        return a + ["--wall"]
    return a + ["--r2", repr(g["r2"]), "--rho2", repr(g["rho2"])]


def impactfit(binary, args):
    p = subprocess.run([binary, "dem"] + args + ["--json"], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("impactfit dem %s: exit %d: %s" % (" ".join(args), p.returncode, p.stderr.strip()))
    return json.loads(p.stdout)


def model_args(m, limit):
    a = ["--code", m["code"], "--model", m["model"]]
    if m["damping"]:
        a += ["--damping", m["damping"]]
    if limit is not None:
        a += ["--limit", "on" if limit else "off"]
    return a + stiffness_args(m) + friction_args(m)


def todo_of(m, full):
    """The (geometry, speed, e) of a model's cases."""
    combos = [(g, v) for g in GEOMS for v in SPEEDS]
    todo = []
    for i, (g, v) in enumerate(combos):
        es = E_VALUES if full else (E_VALUES[i % len(E_VALUES)],)
        todo += [(g, v, e) for e in es]
    if m["takes_e"] and not full:  # the cases of the issue's table: equal spheres, 1 m/s, 0.1, 0.5, 0.9
        todo += [("equal", 1.0, e) for e in ISSUE_E if ("equal", 1.0, e) not in todo]
    return todo


def build(binary, models, full, what=""):
    """The cases: (description, runner case, expected e, kind)."""
    cases = []
    total = sum(len(todo_of(m, full)) * (2 if m["clamp_switch"] else 1) for m in models)
    progress("step %d cases %s" % (total, what))
    done = 0
    for m in models:
        limits = [False, True] if m["clamp_switch"] else [None]
        for limit in limits:
            base = model_args(m, limit)
            todo = todo_of(m, full)
            for g, v, e in todo:
                done += 1
                progress("done %d" % done)
                gargs = geom_args(GEOMS[g]) + ["--v", repr(v)]
                label = "%s %s%s%s, %s, v = %g, e = %g" % (
                    m["code"], m["model"], " damping " + m["damping"] if m["damping"] else "",
                    "" if limit is None else (" limit on" if limit else " limit off"), g, v, e)
                ans = impactfit(binary, base + gargs + ["--e", repr(e)])
                src = ans
                if not ans["reachable"]:
                    src = ans.get("alternative")
                    if src is None:
                        cases.append((label + " [corrected]", None, e, "unreachable: " + ans["note"], {}))
                        continue
                text = src["input"]
                if src is not ans:  # another model: its own friction settings are the user's to fill in
                    text = re.sub(r"<yours: [^>]*>", "0.5", text)
                rc = dict(GEOMS[g], code=m["code"], E=E_MAT, nu=NU, v=v, input=text)
                meta = dict(code=m["code"], model=m["model"], damping=m["damping"], takes_e=m["takes_e"],
                            limit="default" if limit is None else ("on" if limit else "off"), geometry=g, v=v,
                            e_asked=e)
                cases.append((label + " [corrected]", rc, e, "corrected",
                              dict(meta, typed=src["value"], alternative=src is not ans)))
                # the naive input and impactfit's prediction of what it gives
                typed = e if m["takes_e"] else 0.5 * ans["value"]
                fw = impactfit(binary, base + gargs + ["--value", repr(typed)])
                rn = dict(GEOMS[g], code=m["code"], E=E_MAT, nu=NU, v=v, input=fw["input"])
                cases.append((label + " [naive %s = %.6g]" % (m["param"], typed), rn, fw["e_real"], "naive",
                              dict(meta, typed=typed, alternative=False)))
    return cases


def run_code(code, cases, keep, jobs=1):
    runner = os.path.join(HERE, RUNNERS[code])
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cases.json")
        with open(path, "w") as f:
            json.dump([c[1] for c in cases], f)
        cmd = [sys.executable, runner, path, "--code", code]
        if keep:
            cmd += ["--keep", os.path.join(keep, code)]
        if RUNNERS[code] == "run_lammps.py" and jobs > 1:
            cmd += ["--jobs", str(jobs)]
        progress("step %d collisions running %s" % (len(cases), NAMES[code]))
        p = subprocess.run(cmd, capture_output=True, text=True, pass_fds=progress_fds(), env=child_env())
    if p.returncode == 77:
        return None, p.stderr.strip()
    if p.returncode != 0:
        raise RuntimeError("%s runner failed (exit %d): %s" % (code, p.returncode, p.stderr[-3000:]))
    return json.loads(p.stdout), p.stderr.strip()


def one_code(binary, code, models, full, keep, jobs=1):
    """Builds and runs one code's cases: (rows, failures, version or "SKIPPED: why", [(line, also on stderr)])."""
    rows, failures, lines = [], 0, []
    ms = [m for m in models if m["code"] == code and m["run_here"]]
    cases = build(binary, ms, full, "preparing the %s inputs (impactfit dem)" % NAMES[code])
    runnable = [c for c in cases if c[1] is not None]
    for c in cases:
        if c[1] is None:
            lines.append(("FAIL %s: %s" % (c[0], c[3]), False))
            failures += 1
    results, msg = run_code(code, runnable, keep, jobs)
    if results is None:
        lines.append(("SKIPPED %s: %s" % (code, msg), True))
        return rows, failures, "SKIPPED: " + msg, lines
    version = results[0].get("version", "") if results else ""
    worst = 0.0
    for c, r in zip(runnable, results):
        d = r["e"] - c[2]
        worst = max(worst, abs(d))
        ok = abs(d) <= TOL
        failures += not ok
        rows.append(dict(c[4], case=c[0], kind=c[3], expected=c[2], measured=r["e"], diff=d, dt=r["dt"],
                         version=r.get("version", ""), ok=ok))
        if not ok:
            lines.append(("FAIL %s: measured %.8f, expected %.8f (diff %.2e)" % (c[0], r["e"], c[2], d), False))
    lines.append(("%s (%s): %d collisions, %d models/settings, max |measured - expected| = %.2e" % (
        code, version, len(runnable), len({c[0].split(",")[0] for c in runnable}), worst), False))
    return rows, failures, version, lines


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("impactfit")
    ap.add_argument("--code", action="append", choices=sorted(RUNNERS))
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--keep")
    ap.add_argument("--table", help="write every comparison to this JSON file")
    ap.add_argument("--jobs", type=int, default=1, help="codes, and runs of a code, side by side (default 1)")
    a = ap.parse_args(argv)
    p = subprocess.run([a.impactfit, "dem", "--list", "--json"], capture_output=True, text=True, check=True)
    models = [json.loads(l) for l in p.stdout.splitlines() if l.strip()]
    codes = a.code or ["lammps", "liggghts", "yade"]
    global PER_CODE_PROGRESS
    jobs = max(1, min(a.jobs, len(codes)))
    PER_CODE_PROGRESS = jobs == 1
    if jobs == 1:
        outcomes = [one_code(a.impactfit, code, models, a.full, a.keep, a.jobs) for code in codes]
    else:
        progress("step %d codes running %s side by side" % (len(codes), ", ".join(NAMES[c] for c in codes)),
                 overall=True)
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(one_code, a.impactfit, code, models, a.full, a.keep, a.jobs) for code in codes]
            for k, _ in enumerate(concurrent.futures.as_completed(futures)):
                progress("done %d" % (k + 1), overall=True)
            outcomes = [f.result() for f in futures]
    rows, failures, skipped, versions = [], 0, [], {}
    for code, (o_rows, o_failures, o_version, o_lines) in zip(codes, outcomes):
        for line, to_stderr in o_lines:
            print(line)
            if to_stderr:
                print(line, file=sys.stderr)
        rows += o_rows
        failures += o_failures
        versions[code] = o_version
        if o_version.startswith("SKIPPED: "):
            skipped.append(code)
    if a.table:
        with open(a.table, "w") as f:
            json.dump({"rows": rows, "versions": versions, "tol": TOL}, f, indent=1)
    if len(skipped) == len(codes):
        return 77
    n = len(rows)
    print("%d passed, %d failed" % (n - sum(not r["ok"] for r in rows), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
