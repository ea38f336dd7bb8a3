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
                          "u0": b1.state.vel[0] - b2.state.vel[0], "rsum": r1 + r2})
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


def phys_of(p):
    """The contact constants YADE computed for this pair (read while in contact)."""
    ids = p["ids"]
    for i in O.interactions.withBody(ids[0]):
        if not i.isReal:
            continue
        if len(ids) == 2 and ids[1] not in (i.id1, i.id2):
            continue
        out = {}
        for name in ("betan", "betas", "kno", "kso", "kn", "cn", "ks", "cs"):
            if hasattr(i.phys, name):
                out[name] = float(getattr(i.phys, name))
        out["R_eff"] = float(i.geom.refR1 * i.geom.refR2 / (i.geom.refR1 + i.geom.refR2))
        return out
    return None


_RUN = {}


def _check():
    """PyRunner command: record separations, pause the scene when every pair has separated."""
    r = _RUN
    if not r["phys_read"]:
        for p in r["pairs"]:
            p["phys"] = phys_of(p)
        r["phys_read"] = True
    done = True
    for p in r["pairs"]:
        if "t_end" in p:
            continue
        gap, vsep = gap_and_speed(p)
        if gap > 0.0 and vsep > 0.0:
            p["t_end"] = (O.iter + 1) * r["dt"] - gap / vsep  # positions are already at step iter+1
            p["v_after"] = vsep
        else:
            done = False
    r["done"] = done
    if done or O.iter > r["max_steps"]:
        O.pause()


def run_until_separated(pairs, dt, est_steps, max_steps):
    """Advance until every pair has separated (checked every chunk of steps by a PyRunner, in YADE's
    own loop: one O.run per scene); returns False if max_steps is exceeded."""
    chunk = int(max(20, min(est_steps / 40.0, 20000)))
    _RUN.clear()
    _RUN.update({"pairs": pairs, "dt": dt, "max_steps": max_steps, "phys_read": False, "done": False})
    O.engines = O.engines + [PyRunner(iterPeriod=chunk, command="_check()")]
    O.run(int(max_steps) + 2 * chunk, True)
    return _RUN["done"]


def pilot(group, cases):
    """Contact time of every case at a coarse step (the step is refined until it resolves the contact)."""
    tc_est = [c["tc_est"] for c in cases]
    dt = min(tc_est) / PILOT_PER_CONTACT
    for attempt in range(8):
        pairs = make_scene(group, cases, dt)
        est_steps = max(tc_est) / dt
        ok = run_until_separated(pairs, dt, est_steps, 60.0 * est_steps + 1000)
        if not ok:
            dt *= 10.0  # contact much longer than the Hertz estimate
            continue
        tcs = [p["t_end"] for p in pairs]
        if min(tcs) / dt < 100.0:
            dt = min(tcs) / PILOT_PER_CONTACT  # contact much shorter: resolve it and rerun
            continue
        return tcs
    raise RuntimeError("pilot run: could not resolve the contact (no separation or contact too short)")


def main():
    results = {}
    log = []
    for group in SPEC["groups"]:
        cases = group["cases"]
        auto = [c for c in cases if c.get("dt") is None]
        fixed = [c for c in cases if c.get("dt") is not None]
        scenes = []  # (dt, cases)
        if auto:
            tcs = pilot(group, auto)
            order = sorted(range(len(auto)), key=lambda i: tcs[i])
            bucket, tmin = [], None
            for i in order:
                if bucket and tcs[i] > BUCKET_RATIO * tmin:
                    scenes.append((tmin / N_PER_CONTACT, [auto[j] for j in bucket], max(tcs[j] for j in bucket)))
                    bucket, tmin = [], None
                if not bucket:
                    tmin = tcs[i]
                bucket.append(i)
            scenes.append((tmin / N_PER_CONTACT, [auto[j] for j in bucket], max(tcs[j] for j in bucket)))
        by_dt = {}
        for c in fixed:
            by_dt.setdefault(float(c["dt"]), []).append(c)
        for dt, cs in by_dt.items():
            scenes.append((dt, cs, max(c["tc_est"] for c in cs)))
        for dt, cs, tmax in scenes:
            runs = []  # (dt, pairs, steps run); with extrapolation a second run at dt / 2
            for d in ((dt, dt / 2.0) if EXTRAPOLATE else (dt,)):
                pairs = make_scene(group, cs, d)
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
                    "dt": d,
                    "steps": int(round(p["t_end"] / d)),
                    "steps_run": steps_run,
                    "phys": p.get("phys"),
                    "wall": p["wall"],
                }
                if EXTRAPOLATE:
                    # first-order error in dt (measured): e(0) = 2 e(dt/2) - e(dt)
                    q = runs[0][1][j]
                    e_coarse = q["v_after"] / q["u0"]
                    r["e_dt"] = r["e"]
                    r["e_2dt"] = e_coarse
                    r["e"] = 2.0 * r["e"] - e_coarse
                    r["t_contact"] = 2.0 * p["t_end"] - q["t_end"]
                    r["extrapolated"] = True
                results[c["index"]] = r
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
