#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Run head-on collisions in the real LAMMPS (`lmp`) or LIGGGHTS (`liggghts`) and measure the restitution.

usage: python3 tests/dem/run_lammps.py CASES.json [--code lammps|liggghts] [--keep DIR] [--jobs N]

CASES.json is a JSON list of cases (see tests/dem/README.md, "DEM harness"); each case is
  {"code": "lammps"|"liggghts", "geometry": "sphere-sphere"|"sphere-wall",
   "r1": m, "r2": m, "rho1": kg/m^3, "rho2": kg/m^3, "E": Pa, "nu": -, "v": m/s,
   "input": "<the contact-model lines as a user pastes them>", "dt": s (optional)}
and the result printed on stdout (a JSON list, same order) is, per case,
  {"e": (relative normal velocity after separation) / (before), "t_contact": s, "dt": s,
   "steps": steps with overlap > 0, "run_steps": steps of the whole run, "version": "<code banner>"}.

Batching: the cases of one code that share the pair_style line (and, for LIGGGHTS, the scalar
properties) run in one code invocation.  Every case has its own atom type (its own pair_coeff line
in LAMMPS, its own entries in the per-type property/global vectors and matrices in LIGGGHTS), the
pairs are placed far apart along x, a sphere-wall case has its own group and its own wall fix.
The run advances in chunks (LAMMPS: one run command stopped by fix halt; LIGGGHTS: a loop of run
commands) until every body has reversed its normal velocity and no contact is left (the force of these non-cohesive models is zero without overlap), so the velocities read at
the end are the separation velocities.  The contact duration is counted per atom (contact/atom for
pairs, overlap with the plane for walls) with fix ave/atom.

Time step: the case's "dt", else t_Hertz/100000 with t_Hertz = 2.868 delta_max/v the Hertz contact
time of the case's material (E* = E/(2(1-nu^2)), R_eff, m_eff).  Both codes integrate with velocity
Verlet and evaluate the damping force with the half-step velocity, so the measured e carries a
first-order time-step error: about 1e-5 at t_contact/20000 for e = 0.1 (LIGGGHTS hertz, measured),
2e-6 at t_contact/100000, hence the default.  If a case's contact then lasts
fewer than MIN_CONTACT_STEPS steps (a stiffer model than Hertz, e.g. hooke), it is run again with
a step scaled down to resolve TARGET_CONTACT_STEPS.  The dt actually used is reported.

LIGGGHTS runs get `hard_particles yes` and `soft_particles yes`, so its sanity range for youngsModulus
(5e6..1e9 Pa in SI) does not stop a test material; its check 0.05 < coefficientRestitution <= 1 stays.

Exit status: 0 all cases ran; 77 the code's binary is not installed (message on stderr);
1 a run failed (tail of the code's log on stderr); 2 invalid cases file.
"""
import argparse
import concurrent.futures
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

TARGET_CONTACT_STEPS = 100000
MIN_CONTACT_STEPS = 75000
MAX_CASES_PER_RUN = 48      # atom types per run
MAX_WALLS_PER_RUN = 28      # LAMMPS/LIGGGHTS allow 32 groups: all, the wall group, one per wall case
CHUNKS_PER_CONTACT = 8      # loop granularity: a check every ~t_contact/8
MAX_CONTACT_FACTOR = 40     # give up (no separation) after 40 estimated contact times
GAP_STEPS = 4               # the bodies start this many steps of approach apart

BINARIES = {"lammps": "lmp", "liggghts": "liggghts"}


class CaseError(Exception):
    pass


class RunError(Exception):
    pass


# ----------------------------------------------------------------------------- case geometry

def sphere_mass(r, rho):
    return 4.0 / 3.0 * math.pi * r ** 3 * rho


def case_bodies(c):
    """(r1, m1, r2, m2, R_eff, m_eff) of a case; r2 = m2 = None for a wall."""
    r1, rho1 = float(c["r1"]), float(c["rho1"])
    m1 = sphere_mass(r1, rho1)
    if c["geometry"] == "sphere-wall":
        return r1, m1, None, None, r1, m1
    r2 = float(c["r2"])
    rho2 = float(c.get("rho2", rho1))
    m2 = sphere_mass(r2, rho2)
    return r1, m1, r2, m2, r1 * r2 / (r1 + r2), m1 * m2 / (m1 + m2)


def hertz_contact_time(c):
    """Hertz contact time 2.868 delta_max / v of the case's material (an estimate to pick dt)."""
    _, _, _, _, reff, meff = case_bodies(c)
    estar = float(c["E"]) / (2.0 * (1.0 - float(c["nu"]) ** 2))
    v = float(c["v"])
    dmax = (15.0 * meff * v * v / (16.0 * estar * math.sqrt(reff))) ** 0.4
    return 2.868 * dmax / v


def validate(cases, code):
    if not isinstance(cases, list) or not cases:
        raise CaseError("the cases file must hold a non-empty JSON list")
    for i, c in enumerate(cases):
        if not isinstance(c, dict):
            raise CaseError("case %d is not an object" % i)
        cc = c.get("code", code)
        if cc not in BINARIES:
            raise CaseError("case %d: code %r is not lammps or liggghts" % (i, cc))
        if code and cc != code:
            raise CaseError("case %d: code %r differs from --code %s" % (i, cc, code))
        if c.get("geometry") not in ("sphere-sphere", "sphere-wall"):
            raise CaseError("case %d: geometry must be sphere-sphere or sphere-wall" % i)
        need = ["r1", "rho1", "E", "nu", "v", "input"]
        if c["geometry"] == "sphere-sphere":
            need.append("r2")
        for k in need:
            if k not in c:
                raise CaseError("case %d: missing %r" % (i, k))
        for k in ("r1", "r2", "rho1", "rho2", "E", "v"):
            if k in c and not (float(c[k]) > 0.0):
                raise CaseError("case %d: %s must be > 0" % (i, k))
        if "dt" in c and not (float(c["dt"]) > 0.0):
            raise CaseError("case %d: dt must be > 0" % i)
        if not isinstance(c["input"], str) or not c["input"].strip():
            raise CaseError("case %d: input must be the model text" % i)


def input_lines(text):
    out = []
    for ln in text.replace("&\n", " ").splitlines():
        ln = ln.split("#", 1)[0].strip()
        if ln:
            out.append(" ".join(ln.split()))
    return out


# ----------------------------------------------------------------------------- parsing the inputs

def parse_lammps(c):
    """pair_style line, the pair_coeff arguments after 'I J' (or None), the wall fix line (or None)."""
    style, coeff, wall = None, None, None
    for ln in input_lines(c["input"]):
        t = ln.split()
        if t[0] == "pair_style":
            style = ln
        elif t[0] == "pair_coeff":
            if len(t) < 3:
                raise CaseError("pair_coeff needs I J: %r" % ln)
            coeff = " ".join(t[3:])
        elif t[0] == "fix" and len(t) > 3 and t[3] == "wall/gran":
            wall = ln
        else:
            raise CaseError("LAMMPS input: unexpected line %r (give pair_style, pair_coeff, "
                            "fix ... wall/gran)" % ln)
    if c["geometry"] == "sphere-sphere" and style is None:
        raise CaseError("LAMMPS sphere-sphere input needs a pair_style line")
    if c["geometry"] == "sphere-wall" and wall is None:
        raise CaseError("LAMMPS sphere-wall input needs a 'fix {ID} {GROUP} wall/gran ...' line")
    return style, coeff, wall


PROP_RE = re.compile(r"^fix\s+\S+\s+\S+\s+property/global\s+(\S+)\s+(\S+)\s*(.*)$")


def parse_liggghts(c):
    """pair_style line, {name: (style, [values])}, the wall fix line (or None), other lines."""
    style, props, wall = None, {}, None
    for ln in input_lines(c["input"]):
        t = ln.split()
        if t[0] == "pair_style":
            style = ln
        elif t[0] == "pair_coeff":
            continue
        elif t[0] == "fix" and len(t) > 3 and t[3] == "property/global":
            m = PROP_RE.match(ln)
            name, pstyle, rest = m.group(1), m.group(2), m.group(3).split()
            if pstyle == "peratomtypepair":
                n = int(rest[0])
                if n != 1 or len(rest) != 2:
                    raise CaseError("LIGGGHTS %s: give one atom type (peratomtypepair 1 VALUE)" % name)
                props[name] = (pstyle, [rest[1]])
            elif pstyle == "peratomtype":
                if len(rest) != 1:
                    raise CaseError("LIGGGHTS %s: give one atom type (peratomtype VALUE)" % name)
                props[name] = (pstyle, rest)
            else:
                props[name] = (pstyle, rest)
        elif t[0] == "fix" and len(t) > 3 and t[3] == "wall/gran":
            wall = ln
        else:
            raise CaseError("LIGGGHTS input: unexpected line %r" % ln)
    if style is None:
        raise CaseError("LIGGGHTS input needs a 'pair_style gran model ...' line")
    if c["geometry"] == "sphere-wall" and wall is None:
        raise CaseError("LIGGGHTS sphere-wall input needs a 'fix ... wall/gran model ...' line")
    # the material of the case, if the user's text does not define it (models that do not read it
    # ignore it); friction 0 where the tangential model asks for it
    props.setdefault("youngsModulus", ("peratomtype", [repr(float(c["E"]))]))
    props.setdefault("poissonsRatio", ("peratomtype", [repr(float(c["nu"]))]))
    props.setdefault("coefficientFriction", ("peratomtypepair", ["0"]))
    return style, props, wall


def batch_key(code, c):
    if code == "lammps":
        style, _, _ = c["_parsed"]
        return ("lammps", style or "")
    style, props, _ = c["_parsed"]
    scal = tuple(sorted((k, v[0], tuple(v[1])) for k, v in props.items()
                        if v[0] not in ("peratomtype", "peratomtypepair")))
    names = tuple(sorted((k, v[0]) for k, v in props.items()))
    return ("liggghts", style, scal, names)


# ----------------------------------------------------------------------------- writing one run

def wall_line_lammps(line, fid, group):
    """fix ID GROUP wall/gran ... zplane 0.0 NULL [wiggle|shear|contacts ...].  The 29Sep2021 parser
    (fix_wall_gran.cpp) reads limit_damping only before the wall style, so it is moved there."""
    t = line.replace("{ID}", fid).replace("{GROUP}", group).split()
    t[1], t[2] = fid, group
    if "{WALLARGS}" in t:
        i = t.index("{WALLARGS}")
        t[i:i + 1] = ["zplane", "0.0", "NULL"]
    elif "zplane" in t:
        i = t.index("zplane")
        t[i + 1:i + 3] = ["0.0", "NULL"]
    else:
        t += ["zplane", "0.0", "NULL"]
    i = t.index("zplane")
    if "limit_damping" in t[i:]:
        t = [x for k, x in enumerate(t) if not (k > i and x == "limit_damping")]
        t.insert(i, "limit_damping")
    return " ".join(t)


MODEL_TYPES = ("model", "tangential", "cohesion", "rolling_friction", "surface")


def wall_line_liggghts(line, fid, group, atype):
    """LIGGGHTS 3.8 wants: wall/gran <model_type model_name>... primitive type T zplane Z <keywords>
    (fix_wall_gran.cpp; model keywords such as limitForce only after the wall style), so the wall
    arguments are put right after the model pairs whatever the user's order or placeholder."""
    t = line.replace("{ID}", fid).replace("{GROUP}", group).split()
    t[1], t[2] = fid, group
    t = [x for x in t if x != "{WALLARGS}"]
    if "primitive" in t:            # drop the user's own wall arguments: primitive type T zplane Z
        i = t.index("primitive")
        del t[i:i + 5]
    k = 4
    while k + 1 < len(t) and t[k] in MODEL_TYPES:
        k += 2
    t[k:k] = ["primitive", "type", str(atype), "zplane", "0.0"]
    return " ".join(t)


def fmt(x):
    return repr(float(x))


def build_script(code, batch, dt, dump_path):
    """The input script of one run; returns (script, atoms) with atoms[k] = (case index, role)."""
    n = len(batch)
    rmax = max(max(b["_bodies"][0], b["_bodies"][2] or 0.0) for b in batch)
    vmax = max(float(b["v"]) for b in batch)
    tc_max = max(b["_tc"] for b in batch)
    chunk = max(200, int(tc_max / dt / CHUNKS_PER_CONTACT))
    max_loops = int(MAX_CONTACT_FACTOR * CHUNKS_PER_CONTACT) + 20
    t_total = max_loops * chunk * dt
    spacing = 6.0 * rmax
    zhalf = 4.0 * rmax + vmax * t_total * 1.2 + 0.01
    xmax = spacing * (n + 1)
    L = []
    add = L.append
    add("units si")
    if code == "lammps":
        add("atom_style sphere")
    else:
        add("atom_style granular")
        add("hard_particles yes")
        add("soft_particles yes")
        add("newton off")
        add("communicate single vel yes")
    add("atom_modify map array")
    add("boundary f f f")
    add("region box block %s %s %s %s %s %s units box" % (fmt(-spacing), fmt(xmax), fmt(-spacing),
                                                          fmt(spacing), fmt(-zhalf), fmt(zhalf)))
    add("create_box %d box" % n)
    atoms = []
    walls = []
    for t, c in enumerate(batch, start=1):
        r1, m1, r2, m2, _, _ = c["_bodies"]
        v = float(c["v"])
        gap = GAP_STEPS * v * dt
        x = spacing * t
        if c["geometry"] == "sphere-sphere":
            za, zb = -(r1 + gap / 2.0), r2 + gap / 2.0
            va, vb = v * m2 / (m1 + m2), -v * m1 / (m1 + m2)
            add("create_atoms %d single %s 0.0 %s units box" % (t, fmt(x), fmt(za)))
            atoms.append((t - 1, "a"))
            add("set atom %d diameter %s density %s vz %s" % (len(atoms), fmt(2 * r1), fmt(c["rho1"]), fmt(va)))
            add("create_atoms %d single %s 0.0 %s units box" % (t, fmt(x), fmt(zb)))
            atoms.append((t - 1, "b"))
            add("set atom %d diameter %s density %s vz %s" % (len(atoms), fmt(2 * r2),
                                                            fmt(c.get("rho2", c["rho1"])), fmt(vb)))
        else:
            add("create_atoms %d single %s 0.0 %s units box" % (t, fmt(x), fmt(r1 + gap)))
            atoms.append((t - 1, "w"))
            add("set atom %d diameter %s density %s vz %s" % (len(atoms), fmt(2 * r1), fmt(c["rho1"]), fmt(-v)))
            walls.append((t, len(atoms)))
    # the contact model
    style = batch[0]["_parsed"][0]
    if code == "lammps":
        if style is None:
            add("pair_style zero %s" % fmt(2 * rmax))
            add("pair_coeff * *")
        else:
            add(style)
            coeffs = [c["_parsed"][1] for c in batch]
            if style.split()[1] == "granular":
                first = next((x for x in coeffs if x), None)
                if first is None:
                    raise CaseError("pair_style granular needs a pair_coeff line")
                add("pair_coeff * * " + first)
                for t, x in enumerate(coeffs, start=1):
                    if x:
                        add("pair_coeff %d %d %s" % (t, t, x))
            else:
                add("pair_coeff * *")
    else:
        props = {}
        for c in batch:
            for name, (pstyle, vals) in c["_parsed"][1].items():
                props.setdefault(name, (pstyle, []))
        for name, (pstyle, acc) in sorted(props.items()):
            if pstyle == "peratomtype":
                vals = [c["_parsed"][1][name][1][0] for c in batch]
                add("fix p_%s all property/global %s peratomtype %s" % (name, name, " ".join(vals)))
            elif pstyle == "peratomtypepair":
                d = [c["_parsed"][1][name][1][0] for c in batch]
                mat = [d[min(i, j)] for i in range(n) for j in range(n)]
                add("fix p_%s all property/global %s peratomtypepair %d %s" % (name, name, n, " ".join(mat)))
            else:
                pst, vals = batch[0]["_parsed"][1][name]
                add("fix p_%s all property/global %s %s %s" % (name, name, pst, " ".join(vals)))
        add(style)
        add("pair_coeff * *")
    add("neighbor %s bin" % fmt(0.5 * rmax))
    add("neigh_modify delay 0 every 1 check yes")
    if code == "lammps":
        add("comm_modify vel yes")
    add("timestep %s" % fmt(dt))
    # walls: one group and one fix per case
    if walls:
        add("group gw id %s" % " ".join(str(a) for _, a in walls))
    for k, (t, aid) in enumerate(walls, start=1):
        c = batch[t - 1]
        add("group g%d id %d" % (k, aid))
        if code == "lammps":
            add(wall_line_lammps(c["_parsed"][2], "w%d" % k, "g%d" % k))
        else:
            add(wall_line_liggghts(c["_parsed"][2], "w%d" % k, "g%d" % k, t))
    add("fix nve all nve/sphere")
    # contact bookkeeping
    add("compute cc all contact/atom")
    add("compute rad all property/atom radius")
    if walls:
        add("variable wc atom gmask(gw)*((c_rad-z)>0)")
    else:
        add("variable wc atom 0")
    add("variable ic atom (c_cc+v_wc)>0")
    add("variable nr atom (vz*z)<=0")
    add("compute ric all reduce sum v_ic")
    add("compute rnr all reduce sum v_nr")
    add("variable ninc equal c_ric")
    add("variable nrev equal c_rnr")
    add("fix av all ave/atom 1 %d %d v_ic" % (chunk, chunk))
    add("thermo %d" % chunk)
    add("thermo_style custom step c_ric c_rnr")
    add("dump d all custom %d %s id type vz f_av" % (chunk, dump_path))
    if code == "lammps":
        add("dump_modify d format float %.17g")
    else:
        add('dump_modify d format "%d %d %.17g %.17g"')
    if code == "lammps":
        # one run command, stopped by fix halt: LAMMPS 29Sep2021 fix wall/gran re-applies the tsuji
        # polynomial to its damping coefficient in init() (fix_wall_gran.cpp:535-539), i.e. at
        # every run command, so a chunked loop of runs would change the wall's damping
        add("variable done equal (c_rnr==0)&&(c_ric==0)")
        add("fix stop all halt %d v_done == 1 error continue" % chunk)
        add("run %d" % (max_loops * chunk))
    else:
        add("variable loop loop %d" % max_loops)
        add("label again")
        add("run %d" % chunk)
        add('if "${nrev} == 0 && ${ninc} == 0" then "jump SELF done"')
        add("next loop")
        add("jump SELF again")
        add("label done")
    add('print "IMPACTFIT_DONE"')
    return "\n".join(L) + "\n", atoms, chunk


def read_dump(path):
    """{timestep: {id: (vz, av)}} of a dump with columns id type vz f_av."""
    frames = {}
    with open(path) as f:
        lines = f.read().split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("ITEM: TIMESTEP"):
            step = int(lines[i + 1])
            nat = int(lines[i + 3])
            j = i + 4
            while not lines[j].startswith("ITEM: ATOMS"):
                j += 1
            rows = {}
            for ln in lines[j + 1:j + 1 + nat]:
                t = ln.split()
                rows[int(t[0])] = (float(t[2]), float(t[3]))
            frames[step] = rows
            i = j + 1 + nat
        else:
            i += 1
    return frames


def run_batch(code, batch, dt, workdir, tag):
    d = os.path.abspath(os.path.join(workdir, tag))
    os.makedirs(d, exist_ok=True)
    dump = os.path.join(d, "out.dump")
    script, atoms, chunk = build_script(code, batch, dt, dump)
    inp = os.path.join(d, "in.run")
    with open(inp, "w") as f:
        f.write(script)
    log = os.path.join(d, "log.txt")
    cmd = [BINARIES[code], "-in", inp, "-log", log, "-screen", "none"]
    p = subprocess.run(cmd, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    text = open(log).read() if os.path.exists(log) else p.stdout
    if p.returncode != 0 or "IMPACTFIT_DONE" not in text:
        tail = "\n".join((text + "\n" + p.stdout).splitlines()[-25:])
        raise RunError("%s failed in %s (exit %d):\n%s" % (code, d, p.returncode, tail))
    if "ERROR" in text:
        raise RunError("%s reported an error in %s:\n%s" % (code, d, "\n".join(text.splitlines()[-25:])))
    m = re.search(r"^(LAMMPS \(.*?\)|LIGGGHTS \(.*?\))\s*$", text, re.M)
    version = m.group(1) if m else "unknown"
    frames = read_dump(dump)
    steps = sorted(frames)
    last = frames[steps[-1]]
    run_steps = steps[-1]
    if code == "lammps" and "Fix halt condition" not in text or run_steps >= (int(MAX_CONTACT_FACTOR * CHUNKS_PER_CONTACT) + 20) * chunk:
        raise RunError("%s: the bodies did not separate within %d steps (%s)" % (code, run_steps, d))
    # contact steps per atom: sum over chunks of average*chunk (frames at chunk multiples > 0)
    csteps = {}
    for s in steps:
        if s == 0:
            continue
        for aid, (_, av) in frames[s].items():
            csteps[aid] = csteps.get(aid, 0) + int(round(av * chunk))
    results = [None] * len(batch)
    aid_of = {}
    for k, (ci, role) in enumerate(atoms, start=1):
        aid_of[(ci, role)] = k
    for ci, c in enumerate(batch):
        v = float(c["v"])
        if c["geometry"] == "sphere-sphere":
            a, b = aid_of[(ci, "a")], aid_of[(ci, "b")]
            e = (last[b][0] - last[a][0]) / v
            n = csteps.get(a, 0)
        else:
            a = aid_of[(ci, "w")]
            e = last[a][0] / v
            n = csteps.get(a, 0)
        results[ci] = {"e": e, "t_contact": n * dt, "dt": dt, "steps": n,
                       "run_steps": run_steps, "version": version}
    return results


def plan_batches(cases, idx):
    """Split the case indices idx into runs: same batch key, dt within a factor 2, size limits."""
    groups = {}
    for i in idx:
        groups.setdefault(cases[i]["_key"], []).append(i)
    out = []
    for key, members in groups.items():
        members.sort(key=lambda i: cases[i]["_dt"])
        cur, walls = [], 0
        for i in members:
            w = cases[i]["geometry"] == "sphere-wall"
            fixed = "dt" in cases[i] or (cur and "dt" in cases[cur[0]])
            if cur and (len(cur) >= MAX_CASES_PER_RUN or walls + w > MAX_WALLS_PER_RUN
                        or cases[i]["_dt"] > 2.0 * cases[cur[0]]["_dt"]
                        or (fixed and cases[i]["_dt"] != cases[cur[0]]["_dt"])):
                out.append(cur)
                cur, walls = [], 0
            cur.append(i)
            walls += w
        if cur:
            out.append(cur)
    return out



def progress(line):
    """A line of the progress protocol ("step TOTAL UNIT WHAT", "done COUNT") on the file descriptor
    IMPACTFIT_PROGRESS_FD names, when it is set (impactfit reproduce's topic dem-codes reads it to draw
    its progress line); nothing otherwise."""
    fd = os.environ.get("IMPACTFIT_PROGRESS_FD")
    if fd:
        try:
            os.write(int(fd), (line + "\n").encode())
        except (OSError, ValueError):
            pass


def progress_fds():
    """The descriptor of the progress protocol, for a child process (subprocess's pass_fds)."""
    fd = os.environ.get("IMPACTFIT_PROGRESS_FD", "")
    return (int(fd),) if fd.isdigit() else ()


def run_cases(cases, code, workdir, jobs=1):
    for c in cases:
        c["code"] = c.get("code", code)
        c["_bodies"] = case_bodies(c)
        c["_tc"] = hertz_contact_time(c)
        c["_dt"] = float(c["dt"]) if "dt" in c else c["_tc"] / TARGET_CONTACT_STEPS
        c["_parsed"] = parse_lammps(c) if c["code"] == "lammps" else parse_liggghts(c)
        c["_key"] = batch_key(c["code"], c)
    results = [None] * len(cases)
    todo = list(range(len(cases)))
    done = 0
    for attempt in range(3):
        redo = []
        plan = plan_batches(cases, todo)

        def one(b):
            batch = [cases[i] for i in plan[b]]
            return run_batch(batch[0]["code"], batch, min(c["_dt"] for c in batch), workdir,
                             "run%d_%d" % (attempt, b))

        # up to `jobs` runs of the code side by side: the batches and their steps are the same for any jobs,
        # so are the results; they are read back in the plan's order
        outs = [None] * len(plan)
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = {pool.submit(one, b): b for b in range(len(plan))}
            for f in concurrent.futures.as_completed(futures):
                b = futures[f]
                outs[b] = f.result()
                if attempt == 0:  # the progress protocol (progress): collisions measured once
                    done += len(plan[b])
                    progress("done %d" % done)
        for members, res in zip(plan, outs):
            for i, r in zip(members, res):
                c = cases[i]
                if "dt" not in c and r["steps"] < MIN_CONTACT_STEPS and attempt < 2:
                    if r["steps"] <= 0:
                        raise RunError("case %d: no contact was seen" % i)
                    # a stiffer model than the Hertz estimate: resolve the real contact time
                    c["_tc"] = r["t_contact"]
                    c["_dt"] = r["t_contact"] / TARGET_CONTACT_STEPS
                    redo.append(i)
                results[i] = r
        if not redo:
            break
        todo = redo
    return results


def main(argv):
    ap = argparse.ArgumentParser(description="Measure the restitution of head-on collisions in LAMMPS or LIGGGHTS.")
    ap.add_argument("cases")
    ap.add_argument("--code", choices=sorted(BINARIES))
    ap.add_argument("--keep", metavar="DIR", help="keep the input scripts, logs and dumps in DIR")
    ap.add_argument("--jobs", type=int, default=1, help="runs of the code side by side (the results do not depend on it)")
    a = ap.parse_args(argv)
    try:
        with open(a.cases) as f:
            cases = json.load(f)
        validate(cases, a.code)
    except (OSError, ValueError, CaseError) as ex:
        print("run_lammps.py: error: %s" % ex, file=sys.stderr)
        return 2
    codes = sorted({c.get("code", a.code) for c in cases})
    for code in codes:
        if shutil.which(BINARIES[code]) is None:
            print("run_lammps.py: SKIP: %s (%s) is not installed (bash scripts/deps.sh dem)"
                  % (code, BINARIES[code]), file=sys.stderr)
            return 77
    workdir = a.keep or tempfile.mkdtemp(prefix="impactfit_dem_")
    if a.keep:
        os.makedirs(workdir, exist_ok=True)
    try:
        results = run_cases(cases, a.code, workdir, a.jobs)
    except CaseError as ex:
        print("run_lammps.py: error: %s" % ex, file=sys.stderr)
        return 2
    except RunError as ex:
        print("run_lammps.py: %s" % ex, file=sys.stderr)
        return 1
    finally:
        if not a.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    json.dump(results, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
