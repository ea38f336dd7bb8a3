#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Measured evidence for the LAMMPS and LIGGGHTS entries of the DEM registry.

usage: python3 tests/dem/evidence_lammps.py --impactfit PATH/TO/impactfit [--quick] [--keep DIR] [--json OUT]

For every contact model of the Debian 12 LAMMPS (29 Sep 2021 update 2) and LIGGGHTS-PUBLIC 3.8.0
listed in MODELS, the force law read in the code's source is written as F = K d^n + C d^m d' (K and
C from E, nu, R_eff, m_eff and the user's number, see the docstrings of the model functions).  For
three geometries (equal spheres; unequal radii and densities; sphere-wall), three speeds and
several asked e:
  naive   the model that takes e is given e itself; the code's e is measured and compared with
          impactfit simulate for the same K, C, n, m and end condition (A tensile allowed, C clamped);
  exact   the damping that gives e exactly (impactfit zhang-alpha, lambda in the user's units) is
          converted back into the code's own parameter (the typed e of tsuji / hertz / hooke, or
          the damping constant), and the code's e is measured against the asked e.
Prints one markdown table per model and exits 1 if any |measured - expected| exceeds TOL.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
RUNNER = os.path.join(HERE, "run_lammps.py")
TOL = 1e-5
E_MOD, NU = 1e8, 0.3

GEOMETRIES = {
    "equal": dict(geometry="sphere-sphere", r1=0.005, r2=0.005, rho1=2500.0, rho2=2500.0),
    "unequal": dict(geometry="sphere-sphere", r1=0.005, r2=0.003, rho1=2500.0, rho2=7800.0),
    "wall": dict(geometry="sphere-wall", r1=0.004, rho1=2500.0),
}


def bodies(g):
    m1 = 4.0 / 3.0 * math.pi * g["r1"] ** 3 * g["rho1"]
    if g["geometry"] == "sphere-wall":
        return g["r1"], m1
    m2 = 4.0 / 3.0 * math.pi * g["r2"] ** 3 * g["rho2"]
    return g["r1"] * g["r2"] / (g["r1"] + g["r2"]), m1 * m2 / (m1 + m2)


def tsuji_poly(e):
    return (1.2728 - 4.2783 * e + 11.087 * e ** 2 - 22.348 * e ** 3 + 27.467 * e ** 4
            - 18.022 * e ** 5 + 4.8218 * e ** 6)


def tsuji_inverse(alpha):
    """The e to type so that the 29Sep2021 polynomial gives alpha.  poly decreases on [-1, 1]
    (checked on a fine grid in main) and LAMMPS does not check the typed e, so an alpha above
    poly(0) = 1.2728 is reached by typing a negative e."""
    if alpha > tsuji_poly(-1.0) or alpha < tsuji_poly(1.0):
        return None
    lo, hi = -1.0, 1.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if tsuji_poly(mid) > alpha:
            lo = mid
        else:
            hi = mid
    return 0.5 * (lo + hi)


def beta_abs(e):
    le = math.log(e)
    return -le / math.sqrt(le * le + math.pi ** 2)


def e_of_beta(b):
    """Inverse of |beta|(e): e = exp(-pi b / sqrt(1 - b^2)), b < 1."""
    if not (0.0 <= b < 1.0):
        return None
    return math.exp(-math.pi * b / math.sqrt(1.0 - b * b))


# ----------------------------------------------------------------------------- models
# Each model: dict(code, name, n, m, takes_e, cond, K(g), C(g, p) [C per unit of the parameter p],
# param(g, C) [inverse], text(g, p)).  estar: E* of the pair (LAMMPS wall: the (1-nu) trap).

def estar_pair():
    return E_MOD / (2.0 * (1.0 - NU * NU))


def estar_lammps(g):
    # fix wall/gran granular hertz/material: (4/3) E/(2(1-nu)) (fix_wall_gran.cpp:160)
    return E_MOD / (2.0 * (1.0 - NU)) if g["geometry"] == "sphere-wall" else estar_pair()


def lmp_granular(normal, damping, limit, kn=None):
    """LAMMPS pair_style granular / fix wall/gran granular: normal hertz/material|hertz|hooke."""
    lim = " limit_damping" if limit else ""

    def K(g):
        R, _ = bodies(g)
        if normal == "hertz/material":
            return 4.0 / 3.0 * estar_lammps(g) * math.sqrt(R)
        if normal == "hertz":
            return kn * math.sqrt(R)
        return kn

    n = 1.0 if normal == "hooke" else 1.5

    def factor(g):          # C = p * factor(g)
        R, m = bodies(g)
        if damping == "velocity":
            return 1.0
        if damping == "mass_velocity":
            return m
        if damping == "viscoelastic":
            return m * math.sqrt(R)
        return math.sqrt(m * K(g))            # tsuji: p = alpha

    mexp = {"velocity": 0.0, "mass_velocity": 0.0, "viscoelastic": 0.5,
            "tsuji": 0.0 if normal == "hooke" else 0.25}[damping]

    def text(g, p):
        if damping == "tsuji":
            typed = p
        else:
            typed = p
        if normal == "hertz/material":
            nm = "hertz/material %r %r %r" % (E_MOD, typed, NU)
        else:
            nm = "%s %r %r" % (normal, kn, typed)
        body = "%s tangential linear_nohistory 0 0 damping %s%s" % (nm, damping, lim)
        if g["geometry"] == "sphere-wall":
            return "fix {ID} {GROUP} wall/gran granular %s {WALLARGS}\n" % body
        return "pair_style granular\npair_coeff * * %s\n" % body

    if damping == "tsuji":
        c_of = lambda g, e_typed: tsuji_poly(e_typed) * factor(g)
        p_of = lambda g, C: tsuji_inverse(C / factor(g))
    else:
        c_of = lambda g, p: p * factor(g)
        p_of = lambda g, C: C / factor(g)
    return dict(code="lammps", name="granular %s%s damping %s%s" % (normal, "" if kn is None else " kn=%g" % kn,
                                                                     damping, lim),
                n=n, m=mexp, takes_e=(damping == "tsuji"), cond="C" if limit else "A",
                K=K, C=c_of, param=p_of, text=text)


def lmp_classic(style, limit, kn):
    """LAMMPS pair_style gran/hooke, gran/hooke/history, gran/hertz/history (and fix wall/gran)."""
    lim = " limit_damping" if limit else ""
    hertz = style == "hertz/history"

    def K(g):
        R, _ = bodies(g)
        return kn * math.sqrt(R) if hertz else kn

    def factor(g):
        R, m = bodies(g)
        return m * math.sqrt(R) if hertz else m

    def text(g, gn):
        args = "%r NULL %r NULL 0.0 0%s" % (kn, gn, lim)
        if g["geometry"] == "sphere-wall":
            return "fix {ID} {GROUP} wall/gran %s %s {WALLARGS}\n" % (style, args)
        return "pair_style gran/%s %s\npair_coeff * *\n" % (style, args)

    return dict(code="lammps", name="gran/%s%s" % (style, lim), n=1.5 if hertz else 1.0,
                m=0.5 if hertz else 0.0, takes_e=False, cond="C" if limit else "A",
                K=K, C=lambda g, p: p * factor(g), param=lambda g, C: C / factor(g), text=text)


LIG_MAT = ("fix m1 all property/global youngsModulus peratomtype %r\n"
           "fix m2 all property/global poissonsRatio peratomtype %r\n"
           "fix m4 all property/global coefficientFriction peratomtypepair 1 0\n" % (E_MOD, NU))


def lig_model(model, limit, kn=None, absolute=False, vchar=1.0):
    lf = "on" if limit else "off"
    kw = " limitForce %s" % lf + (" absolute_damping on" if absolute else "")

    def K(g):
        R, m = bodies(g)
        ys = estar_pair()
        if model == "hertz":
            return 4.0 / 3.0 * ys * math.sqrt(R)
        if model == "hooke":
            sr = math.sqrt(R)
            return 16.0 / 15.0 * sr * ys * (15.0 * m * vchar ** 2 / (16.0 * sr * ys)) ** 0.2
        if model == "hertz/stiffness":
            return kn * math.sqrt(R)
        return kn

    n = 1.5 if model in ("hertz", "hertz/stiffness") else 1.0
    mexp = {"hertz": 0.25, "hooke": 0.0, "hooke/stiffness": 0.0, "hertz/stiffness": 0.5}[model]

    def factor(g):
        R, m = bodies(g)
        if model == "hertz":            # C = 2 sqrt(5/6) |beta| sqrt(2 Y* m) R^(1/4)
            return 2.0 * math.sqrt(5.0 / 6.0) * math.sqrt(2.0 * estar_pair() * m) * R ** 0.25
        if model == "hooke":            # C = 2 |beta| sqrt(m kn)
            return 2.0 * math.sqrt(m * K(g))
        if model == "hertz/stiffness":
            return m * math.sqrt(R)
        return 1.0 if absolute else m

    def text(g, p):
        s = "pair_style gran model %s tangential no_history%s\n" % (model, kw) + LIG_MAT
        if model in ("hertz", "hooke"):
            s += "fix m3 all property/global coefficientRestitution peratomtypepair 1 %r\n" % p
            if model == "hooke":
                s += "fix m5 all property/global characteristicVelocity scalar %r\n" % vchar
        else:
            s += "fix m6 all property/global kn peratomtypepair 1 %r\n" % kn
            s += "fix m7 all property/global kt peratomtypepair 1 %r\n" % (kn * 2.0 / 7.0)
            g_name = "gamman_abs" if absolute else "gamman"
            t_name = "gammat_abs" if absolute else "gammat"
            s += "fix m8 all property/global %s peratomtypepair 1 %r\n" % (g_name, p)
            s += "fix m9 all property/global %s peratomtypepair 1 0\n" % t_name
        if g["geometry"] == "sphere-wall":
            s += "fix {ID} {GROUP} wall/gran model %s tangential no_history%s {WALLARGS}\n" % (model, kw)
        return s

    takes_e = model in ("hertz", "hooke")
    if takes_e:
        c_of = lambda g, e_typed: beta_abs(e_typed) * factor(g)
        p_of = lambda g, C: e_of_beta(C / factor(g))
    else:
        c_of = lambda g, p: p * factor(g)
        p_of = lambda g, C: C / factor(g)
    return dict(code="liggghts", name="model %s%s%s" % (model, kw, "" if kn is None else " kn=%g" % kn),
                n=n, m=mexp, takes_e=takes_e, cond="C" if limit else "A", K=K, C=c_of, param=p_of, text=text)


def all_models(quick):
    ms = []
    for lim in (False, True):
        ms.append(lmp_granular("hertz/material", "tsuji", lim))
        ms.append(lmp_granular("hertz/material", "viscoelastic", lim))
        ms.append(lmp_granular("hertz/material", "velocity", lim))
        ms.append(lmp_granular("hertz/material", "mass_velocity", lim))
        ms.append(lmp_granular("hertz", "tsuji", lim, kn=7.3e7))
        ms.append(lmp_granular("hooke", "tsuji", lim, kn=2e4))
        ms.append(lmp_granular("hooke", "mass_velocity", lim, kn=2e4))
        ms.append(lmp_granular("hooke", "velocity", lim, kn=2e4))
        ms.append(lmp_granular("hooke", "viscoelastic", lim, kn=2e4))
        ms.append(lmp_classic("hooke", lim, 2e4))
        ms.append(lmp_classic("hooke/history", lim, 2e4))
        ms.append(lmp_classic("hertz/history", lim, 7.3e7))
        ms.append(lig_model("hertz", lim))
        ms.append(lig_model("hooke", lim))
        ms.append(lig_model("hooke/stiffness", lim, kn=2e4))
        ms.append(lig_model("hooke/stiffness", lim, kn=2e4, absolute=True))
        ms.append(lig_model("hertz/stiffness", lim, kn=7.3e7))
    if quick:
        ms = [m for m in ms if "tsuji" in m["name"] or m["code"] == "liggghts" and "stiffness" not in m["name"]]
    return ms


# ----------------------------------------------------------------------------- impactfit

class Impactfit:
    def __init__(self, path):
        self.path = path

    def _run(self, args):
        p = subprocess.run([self.path] + args + ["--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        rows = [json.loads(x) for x in p.stdout.splitlines() if x.strip()]
        return rows

    def e_of(self, n, m, C, K, mass, v, cond):
        r = self._run(["simulate", "--n", repr(n), "--m", repr(m), "--c", repr(C), "--k", repr(K),
                       "--mass", repr(mass), "--v", repr(v), "--transition", cond])
        return r[0]["e_out"] if r and r[0].get("status") == "OK" else None

    def lam(self, n, m, e, K, mass, v, cond):
        r = self._run(["zhang-alpha", "--n", repr(n), "--m", repr(m), "--e", repr(e), "--transition", cond,
                       "--k", repr(K), "--mass", repr(mass), "--v", repr(v)])
        return r[0]["lambda"] if r and r[0].get("status") == "OK" else None


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--impactfit", required=True)
    ap.add_argument("--quick", action="store_true", help="only the models that take e, speeds 1 m/s")
    ap.add_argument("--keep")
    ap.add_argument("--json", help="write all rows to this file")
    ap.add_argument("--only", help="substring of the model names to run")
    a = ap.parse_args(argv)
    imp = Impactfit(a.impactfit)
    grid = [-1.0 + 2.0 * i / 20000 for i in range(20001)]
    assert all(tsuji_poly(x) > tsuji_poly(y) for x, y in zip(grid, grid[1:])), "tsuji poly not monotone"
    speeds = (1.0,) if a.quick else (0.5, 1.0, 3.0)
    e_asked = (0.1, 0.3, 0.5, 0.7, 0.9)
    rows, cases = [], []
    models = all_models(a.quick)
    if a.only:
        models = [m for m in models if a.only in m["name"]]
    for mod in models:
        for gname, g in GEOMETRIES.items():
            R, mass = bodies(g)
            K = mod["K"](g)
            for v in speeds:
                for e in e_asked:
                    base = dict(g, code=mod["code"], E=E_MOD, nu=NU, v=v)
                    lam = imp.lam(mod["n"], mod["m"], e, K, mass, v, mod["cond"])
                    p_exact = mod["param"](g, lam) if lam is not None else None
                    row = dict(model=mod["name"], code=mod["code"], geom=gname, v=v, e=e, n=mod["n"], m=mod["m"],
                               cond=mod["cond"], K=K, mass=mass, lam=lam, p_exact=p_exact)
                    if mod["takes_e"] and 0.05 < e:
                        Cn = mod["C"](g, e)
                        row["e_naive_pred"] = imp.e_of(mod["n"], mod["m"], Cn, K, mass, v, mod["cond"])
                        row["i_naive"] = len(cases)
                        cases.append(dict(base, input=mod["text"](g, e)))
                    typed_ok = mod["code"] == "lammps" or 0.05 < p_exact <= 1.0 if p_exact is not None else False
                    if p_exact is not None and (not mod["takes_e"] or typed_ok):
                        row["i_exact"] = len(cases)
                        cases.append(dict(base, input=mod["text"](g, p_exact)))
                    rows.append(row)
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
        with open(os.path.join(a.keep, "cases.json"), "w") as f:
            json.dump(cases, f, indent=1)
    results = []
    for code in ("lammps", "liggghts"):
        idx = [i for i, c in enumerate(cases) if c["code"] == code]
        if not idx:
            continue
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump([cases[i] for i in idx], f)
            path = f.name
        cmd = [sys.executable, RUNNER, path, "--code", code]
        if a.keep:
            cmd += ["--keep", os.path.join(a.keep, code)]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
        os.unlink(path)
        if p.returncode != 0:
            print("runner failed for %s (exit %d)" % (code, p.returncode), file=sys.stderr)
            return p.returncode
        for i, r in zip(idx, json.loads(p.stdout)):
            results.append((i, r))
    res = dict(results)
    bad = 0
    cur = None
    for row in rows:
        if row["model"] != cur:
            cur = row["model"]
            print("\n#### %s %s (n %g, m %g, end %s)\n" % (row["code"], cur, row["n"], row["m"], row["cond"]))
            print("| geometry | v | e asked | naive: measured | impactfit | exact param | measured | err |")
            print("|---|---|---|---|---|---|---|---|")
        nm = res.get(row.get("i_naive"))
        ex = res.get(row.get("i_exact"))
        row["e_naive_meas"] = nm["e"] if nm else None
        row["e_exact_meas"] = ex["e"] if ex else None
        row["dt"] = (ex or nm or {}).get("dt")
        s_naive = "%.7f | %.7f" % (nm["e"], row["e_naive_pred"]) if nm and row.get("e_naive_pred") else "- | -"
        if nm and row.get("e_naive_pred") is not None and abs(nm["e"] - row["e_naive_pred"]) > TOL:
            s_naive += " **X**"
            bad += 1
        if ex:
            err = ex["e"] - row["e"]
            s_ex = "%.10g | %.7f | %.1e" % (row["p_exact"], ex["e"], err)
            if abs(err) > TOL:
                s_ex += " **X**"
                bad += 1
        else:
            s_ex = "%s | - | -" % ("unreachable" if row["p_exact"] is None or row["lam"] is None else "%.6g (out of range)" % row["p_exact"])
        print("| %s | %g | %g | %s | %s |" % (row["geom"], row["v"], row["e"], s_naive, s_ex))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    print("\n%d row(s) outside %.0e" % (bad, TOL))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
