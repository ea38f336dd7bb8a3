# SPDX-License-Identifier: GPL-3.0-or-later
# Runs inside YADE (`yade -n -j1 -x tests/dem/yade_scene.py IN.json OUT.json`), driven by
# tests/dem/run_yade.py. Not a standalone script: the YADE names (O, FrictMat, utils, ...) come from YADE's
# own namespace.
#
# IN.json: {"steps_per_contact": N, "groups": [{"input": TEXT, "wall": "wall"|"facet"|"box",
#            "hertzian": bool, "cases": [{"index", "geometry", "r1", "r2", "rho1", "rho2", "v", "tc_est",
#            "dt"?}]}]}
# For every group the input text is executed (it defines mat, ip2, law2) in a fresh scene, and the cases
# are placed as independent body pairs far apart: sphere-sphere pairs side by side, each starting exactly
# touching (overlap 0) and approaching at relative speed v; sphere-wall cases above one wall (or one facet or
# box per sphere) at z = 0, also touching at t = 0. A coarse pilot run measures every pair's contact time;
# the pairs are then split into scenes of similar contact time, each run with dt = shortest contact / N
# (or the case's own dt), until every pair has separated (gap > 0). e is the ratio of the relative normal
# velocities after/before (after separation no force acts, the velocities are constant); the end of the
# contact is located between steps by the linear motion after separation: t_end = t - gap / v_separation.
import json
import math
import os
import sys
import traceback

YADE_NS = dict(globals())
IN_PATH, OUT_PATH = sys.argv[1], sys.argv[2]
SPEC = json.load(open(IN_PATH))
N_PER_CONTACT = float(SPEC["steps_per_contact"])
EXTRAPOLATE = bool(SPEC.get("extrapolate", False))
PILOT_PER_CONTACT = 400.0
BUCKET_RATIO = 1.6


def sphere_mass(r, rho):
    return rho * 4.0 / 3.0 * math.pi * r ** 3


def make_scene(group, cases, dt):
    O.reset()
    ns = dict(YADE_NS)
    exec(group["input"], ns)
    for name in ("mat", "ip2", "law2"):
        if name not in ns:
            raise RuntimeError("the input text does not define '%s'" % name)
    mat, ip2, law2 = ns["mat"], ns["ip2"], ns["law2"]
    O.materials.append(mat)
    hertzian = bool(group.get("hertzian", False))
    O.engines = [
        ForceResetter(),
        InsertionSortCollider([Bo1_Sphere_Aabb(), Bo1_Wall_Aabb(), Bo1_Facet_Aabb(), Bo1_Box_Aabb()]),
        InteractionLoop(
            [Ig2_Sphere_Sphere_ScGeom(), Ig2_Wall_Sphere_ScGeom(hertzian=hertzian),
             Ig2_Facet_Sphere_ScGeom(hertzian=hertzian), Ig2_Box_Sphere_ScGeom()],
            [ip2], [law2]),
        # damping = 0: YADE's default (0.2, Cundall's non-viscous damping) would change e.
        NewtonIntegrator(damping=0.0, gravity=(0, 0, 0)),
    ]
    O.dt = dt
    rmax = max(max(c["r1"], c.get("r2", 0.0)) for c in cases)
    pitch = 6.0 * rmax
    z_pairs = 10.0 * rmax + 1.0  # sphere-sphere pairs: far above the wall plane z = 0
    pairs = []
    wall_made = False
    for k, c in enumerate(cases):
        r1, v = c["r1"], c["v"]
        m1 = sphere_mass(r1, c["rho1"])
        if c["geometry"] == "sphere-sphere":
            r2 = c["r2"]
            m2 = sphere_mass(r2, c["rho2"])
            y = k * pitch
            b1 = utils.sphere((0.0, y, z_pairs), r1, material=mat)
            b2 = utils.sphere((r1 + r2, y, z_pairs), r2, material=mat)  # touching: overlap exactly 0
            for b, m, r in ((b1, m1, r1), (b2, m2, r2)):
                b.state.mass = m
                b.state.inertia = (0.4 * m * r * r,) * 3
            b1.state.vel = (v * m2 / (m1 + m2), 0, 0)
            b2.state.vel = (-v * m1 / (m1 + m2), 0, 0)
            id1, id2 = O.bodies.append(b1), O.bodies.append(b2)
            pairs.append({"case": c, "ids": (id1, id2), "axis": 0, "wall": None,
                          "u0": float(b1.state.vel[0] - b2.state.vel[0]), "rsum": r1 + r2})
        else:
            x = k * pitch
            kind = group.get("wall", "wall")
            if kind == "wall":
                if not wall_made:
                    O.bodies.append(utils.wall(0.0, axis=2, material=mat))
                    wall_made = True
            elif kind == "facet":
                a = 3.0 * r1
                O.bodies.append(utils.facet([(x - a, -a, 0.0), (x + 2 * a, -a, 0.0), (x - a, 2 * a, 0.0)],
                                            material=mat))
            elif kind == "box":
                a = 2.0 * r1
                O.bodies.append(utils.box((x, 0.0, -a), (a, a, a), fixed=True, material=mat))
            else:
                raise RuntimeError("unknown wall kind '%s'" % kind)
            b = utils.sphere((x, 0.0, r1), r1, material=mat)  # touching the plane z = 0
            b.state.mass = m1
            b.state.inertia = (0.4 * m1 * r1 * r1,) * 3
            b.state.vel = (0, 0, -v)
            id1 = O.bodies.append(b)
            pairs.append({"case": c, "ids": (id1,), "axis": 2, "wall": kind,
                          "u0": v, "rsum": r1})
    return pairs


def gap_and_speed(p):
    if len(p["ids"]) == 2:
        s1, s2 = O.bodies[p["ids"][0]].state, O.bodies[p["ids"][1]].state
        d = s2.pos - s1.pos
        dist = d.norm()
        n = d / dist
        return dist - p["rsum"], (s2.vel - s1.vel).dot(n)
    s = O.bodies[p["ids"][0]].state
    return s.pos[2] - p["rsum"], s.vel[2]


def contact_of(p):
    """The real interaction of this pair, or None."""
    ids = p["ids"]
    for i in O.interactions.withBody(ids[0]):
        if not i.isReal:
            continue
        if len(ids) == 2 and ids[1] not in (i.id1, i.id2):
            continue
        return i
    return None


def phys_of(i):
    """The contact constants YADE computed for this interaction."""
    out = {}
    for name in ("betan", "betas", "kno", "kso", "kn", "cn", "ks", "cs"):
        if hasattr(i.phys, name):
            out[name] = float(getattr(i.phys, name))
    out["R_eff"] = float(i.geom.refR1 * i.geom.refR2 / (i.geom.refR1 + i.geom.refR2))
    return out


_RUN = {}


def _check():
    """PyRunner command, run every chunk of steps and, in a window around each pair's expected end of
    force, at every step. Records per pair: the constants YADE computed (first check in contact), the
    first step at which the normal force is zero after the contact began (t_force, exact to the step
    only when seen by a per-step check), and the separation (gap > 0): t_end located between steps by
    the force-free motion, e from the velocities. Pauses the scene when every pair has separated."""
    r = _RUN
    it = O.iter
    t_pos = (it + 1) * r["dt"]  # positions and velocities are already at step it+1
    per_step = (it - r["last"]) == 1
    done = True
    for p in r["pairs"]:
        if "t_end" in p:
            continue
        if "t_force" not in p:
            i = contact_of(p)
            if i is not None and "phys" not in p:
                p["phys"] = phys_of(i)
            f = 0.0 if i is None else float(i.phys.normalForce.norm())
            if f == 0.0:
                # the force of step `it` (from the positions at it * dt) is zero: the zero crossing is
                # located between steps by the straight line through the last two nonzero forces
                p["t_force"] = None
                if per_step:
                    p["t_force"] = it * r["dt"]
                    h = p.get("f_hist")
                    if h and len(h) == 2 and h[0][0] == it - 2 and h[1][0] == it - 1 and h[0][1] > h[1][1] > 0:
                        s_zero = (it - 1) + h[1][1] / (h[0][1] - h[1][1])
                        if s_zero <= it:
                            p["t_force"] = s_zero * r["dt"]
            elif per_step:
                p["f_hist"] = (p.get("f_hist", ((None, 0.0),))[-1], (it, f))
        gap, vsep = (float(x) for x in gap_and_speed(p))  # float: also for yade-longdouble etc.
        if gap > 0.0 and vsep > 0.0:
            p["t_end"] = t_pos - gap / vsep
            p["v_after"] = vsep
            # force still nonzero at the last (per-step) check: it ended with the overlap
            p.setdefault("t_force", p["t_end"] if per_step else None)
        else:
            done = False
    r["last"] = it
    if done or it > r["max_steps"]:
        # stop after this step, in YADE's C++ loop (SimulationFlow::singleAction: stopAtIter reached ->
        # the thread ends), not with O.pause() from here: after O.pause() the main thread's O.wait()
        # returned while this command still ran, the main thread took the GIL and O.reset() waited for
        # the simulation thread's mutex, which waited for the GIL (a deadlock seen once in four runs on a
        # loaded machine: YADE 2023.02a, every thread in futex_wait). The state is the same: this step
        # finishes either way.
        O.stopAtIter = O.iter + 1
        return
    nxt = it + r["chunk"]
    for p in r["pairs"]:
        if "t_force" not in p and p.get("window"):
            w0, w1 = p["window"]
            if it + 1 >= w0 and it < w1:
                nxt = it + 1
            elif it + 1 < w0:
                nxt = min(nxt, w0)
    r["runner"].iterPeriod = max(1, nxt - it)


def run_until_separated(pairs, dt, est_steps, max_steps, chunk=None):
    """Advance until every pair has separated, inside YADE's own loop (one O.run per scene: each O.run
    with wait costs ~40 ms); returns False if max_steps is exceeded."""
    if chunk is None:
        chunk = int(max(20, min(est_steps / 40.0, 20000)))
    runner = PyRunner(iterPeriod=chunk, command="_check()")
    _RUN.clear()
    _RUN.update({"pairs": pairs, "dt": dt, "max_steps": max_steps, "chunk": chunk, "runner": runner,
                 "last": 0})
    for p in pairs:
        if "t_force_est" in p:  # per-step checks over +-3 pilot steps around the pilot's end of force
            t, h = p["t_force_est"]
            p["window"] = (int((t - 3 * h) / dt), int((t + 3 * h) / dt) + 2)
    O.engines = O.engines + [runner]
    O.run(int(max_steps) + 2 * chunk, True)
    return all("t_end" in p for p in pairs)


def pilot(group, cases):
    """Contact time and end of force of every case at a coarse step, checked at every step (the step is
    refined until it resolves the contact). Returns [(t_end, t_force, dt)]."""
    tc_est = [c["tc_est"] for c in cases]
    dt = min(tc_est) / PILOT_PER_CONTACT
    for attempt in range(8):
        pairs = make_scene(group, cases, dt)
        est_steps = max(tc_est) / dt
        ok = run_until_separated(pairs, dt, est_steps, 60.0 * est_steps + 1000, chunk=1)
        if not ok:
            dt *= 10.0  # contact much longer than the Hertz estimate
            continue
        tcs = [p["t_end"] for p in pairs]
        if min(tcs) / dt < 100.0:
            dt = min(tcs) / PILOT_PER_CONTACT  # contact much shorter: resolve it and rerun
            continue
        return [(p["t_end"], p["t_force"], dt) for p in pairs]
    raise RuntimeError("pilot run: could not resolve the contact (no separation or contact too short)")


def progress_done(count):
    """'done COUNT' on the progress protocol's descriptor (IMPACTFIT_PROGRESS_FD, test_dem_codes.py)."""
    fd = os.environ.get("IMPACTFIT_PROGRESS_FD")
    if fd:
        try:
            os.write(int(fd), ("done %d\n" % count).encode())
        except (OSError, ValueError):
            pass


def main():
    results = {}
    log = []
    for group in SPEC["groups"]:
        cases = group["cases"]
        auto = [c for c in cases if c.get("dt") is None]
        fixed = [c for c in cases if c.get("dt") is not None]
        scenes = []  # (dt, cases, longest contact, extrapolate)
        if auto:
            pil = pilot(group, auto)
            tcs = [x[0] for x in pil]
            for c, (t_end, t_force, dtp) in zip(auto, pil):
                if t_force is not None:
                    c["_t_force_est"] = (t_force, dtp)
            order = sorted(range(len(auto)), key=lambda i: tcs[i])
            bucket, tmin = [], None
            for i in order:
                if bucket and tcs[i] > BUCKET_RATIO * tmin:
                    scenes.append((tmin / N_PER_CONTACT, [auto[j] for j in bucket], max(tcs[j] for j in bucket),
                                   EXTRAPOLATE))
                    bucket, tmin = [], None
                if not bucket:
                    tmin = tcs[i]
                bucket.append(i)
            scenes.append((tmin / N_PER_CONTACT, [auto[j] for j in bucket], max(tcs[j] for j in bucket),
                           EXTRAPOLATE))
        by_dt = {}
        for c in fixed:
            by_dt.setdefault(float(c["dt"]), []).append(c)
        for dt, cs in by_dt.items():
            scenes.append((dt, cs, max(c["tc_est"] for c in cs), False))  # the case's own step: one run
        for dt, cs, tmax, extrapolate in scenes:
            runs = []  # (dt, pairs, steps run); with extrapolation a second run at dt / 2
            for d in ((dt, dt / 2.0) if extrapolate else (dt,)):
                pairs = make_scene(group, cs, d)
                for p in pairs:
                    if "_t_force_est" in p["case"]:
                        p["t_force_est"] = p["case"]["_t_force_est"]
                est = tmax / d
                if not run_until_separated(pairs, d, est, 100.0 * est + 1000):
                    raise RuntimeError("no separation within %d steps (dt = %g)" % (O.iter, d))
                log.append({"dt": d, "pairs": len(pairs), "steps_run": O.iter})
                runs.append((d, pairs, O.iter))
            d, pairs, steps_run = runs[-1]
            for j, p in enumerate(pairs):
                c = p["case"]
                r = {
                    "e": p["v_after"] / p["u0"],
                    "t_contact": p["t_end"],
                    "t_force": p.get("t_force"),
                    "dt": d,
                    "steps": int(round(p["t_end"] / d)),
                    "steps_run": steps_run,
                    "phys": p.get("phys"),
                    "wall": p["wall"],
                }
                if extrapolate:
                    # first-order error in dt (measured): e(0) = 2 e(dt/2) - e(dt)
                    q = runs[0][1][j]
                    e_coarse = q["v_after"] / q["u0"]
                    r["e_dt"] = r["e"]
                    r["e_2dt"] = e_coarse
                    r["e"] = 2.0 * r["e"] - e_coarse
                    r["t_contact"] = 2.0 * p["t_end"] - q["t_end"]
                    if p.get("t_force") is not None and q.get("t_force") is not None:
                        r["t_force"] = 2.0 * p["t_force"] - q["t_force"]
                r["extrapolated"] = extrapolate
                results[c["index"]] = r
            progress_done(len(results))
    out = {"version": str(yade.config.version), "results": results, "scenes": log}
    with open(OUT_PATH, "w") as f:
        json.dump(out, f)


try:
    main()
except Exception:
    traceback.print_exc()
    sys.stdout.flush()
    sys.stderr.flush()
    import os
    os._exit(3)
