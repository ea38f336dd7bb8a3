#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Check YADE 2023.02a against independently computed restitution (issue 14).

usage: check_yade_table.py --impactfit BIN [--all] [--markdown] [--steps-per-contact N] [--tol T]
                           [--keep DIR]

Default: the issue's YADE row. Two equal spheres R = 5 mm, rho = 2500 kg/m^3, E = 1e8 Pa, nu = 0.3,
1 m/s, Ip2_FrictMat_FrictMat_MindlinPhys(en = 0.1, 0.5, 0.9): YADE must give 0.10008, 0.50001, 0.89992
(the issue's figures, to their 5 decimals), the same as impactfit's simulation of the law read from
YADE's source (Thornton (B6) beta, clamped force) within --tol, and betan computed with
impactfit zhang-alpha must give the asked e within --tol.

--all: every model of YADE 2023.02a that takes a restitution or damping (the rows of build_all), for
equal spheres, unequal radii and masses, sphere-wall (utils.wall), 3 speeds and 5 values of e: once with
the naive input (measured e must equal the prediction from the source-read law, simulated by impactfit)
and once with the corrected input computed here from impactfit (measured e must equal the asked e).

The predictions are independent of YADE: the force laws, conversions and conventions below are read from
YADE 2023.02a's source (pkg/dem/HertzMindlin.cpp, pkg/dem/ViscoelasticPM.cpp, pkg/dem/Ig2_*), and the
impact is simulated by impactfit's own integrator (impactfit simulate / zhang-alpha / copt).
Exit status: 0 all checks pass, 1 a check failed, 77 YADE not installed, 2 usage.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
E_MOD, NU = 1e8, 0.3
TABLE = [(0.1, 0.10008), (0.5, 0.50001), (0.9, 0.89992)]  # issue 14, YADE row

# Thornton et al. (2013) Eq. (B7) coefficients as in HertzMindlin.cpp (2023.02a) lines 77-86.
H = [-6.918798, -16.41105, 146.8049, -796.4559, 2928.711, -7206.864, 11494.29, -11342.18, 6276.757,
     -1489.915]


def beta_b6(e):
    """HertzMindlin.cpp lines 94-99: betan from en (Thornton 2013, Eqs. B6-B7)."""
    if e == 1.0:
        return 0.0
    s = 0.0
    for h in reversed(H):
        s = s * e + h
    alpha = e * s
    return math.sqrt(1.0 / (1.0 - (1.0 + e) ** 2 * math.exp(alpha)) - 1.0)


def get_en_from_cn(cn, m, kn, eps=1e-8):
    """ViscoelasticPM.cpp lines 368-383 (Schwager & Poeschel 2007, clamped linear dashpot)."""
    beta = 0.5 * cn / m
    omega0 = math.sqrt(kn / m)
    w2 = omega0 * omega0 - beta * beta
    omega = math.sqrt(w2) if w2 >= 0 else float("nan")
    big = math.sqrt(-w2) if w2 <= 0 else float("nan")
    if beta < omega0 / math.sqrt(2.0):
        return math.exp(-beta / omega * (math.pi - math.atan(2.0 * beta * omega / (omega * omega - beta * beta))))
    if omega0 / math.sqrt(2.0) < beta < omega0:
        return math.exp(-beta / omega * math.atan(-2.0 * beta * omega / (omega * omega - beta * beta)))
    if beta > omega0:
        return math.exp(-beta / big * math.log((beta + big) / (beta - big)))
    if beta == omega0 / math.sqrt(2.0) or beta == omega0:
        return get_en_from_cn(cn + eps, m, kn)
    return 0.0


def find_cn_from_en(en, m, kn, eps=1e-8):
    """ViscoelasticPM.cpp lines 342-366: Newton iteration stopped at relative error < 1e-2."""
    cn = eps
    en_temp = get_en_from_cn(cn, m, kn)
    i = 0
    error = 1.0 / eps
    while error > 1.0e-2 or error != error:
        if i > 15:
            return 0.0
        i += 1
        deriv = (get_en_from_cn(cn - eps, m, kn) - get_en_from_cn(cn + eps, m, kn)) / (-2.0 * eps)
        deriv = deriv if abs(deriv) > 1e-15 else 1e-15
        cn = cn - (en_temp - en) / deriv
        en_temp = get_en_from_cn(cn, m, kn)
        error = abs(en_temp - en) / en
    return cn


class Impactfit:
    def __init__(self, exe):
        self.exe = exe
        self.cache = {}

    def run(self, *args):
        key = tuple(str(a) for a in args)
        if key not in self.cache:
            p = subprocess.run([self.exe] + list(key) + ["--json"], capture_output=True, text=True)
            if p.returncode != 0:
                raise RuntimeError("impactfit %s failed: %s" % (" ".join(key), p.stderr.strip()))
            self.cache[key] = json.loads(p.stdout.splitlines()[0])
        return self.cache[key]

    def simulate(self, n, m, k, c, mass, v=1.0):
        """One impact mass d'' + k d^n + c d^m d' = 0, force clamped at zero (condition C): e_out and
        t_contact (to the zero of the force)."""
        return self.run("simulate", "--n", repr(n), "--m", repr(m), "--k", repr(k), "--c", repr(c),
                        "--mass", repr(mass), "--v", repr(v), "--transition", "C")

    def mindlin_beta(self, e):
        """Exact betan for YADE's law: lambda = 2 beta sqrt(1.5 k mass) at k = mass = v = 1."""
        d = self.run("zhang-alpha", "--n", "1.5", "--m", "0.25", "--e", repr(e), "--transition", "C",
                     "--k", "1", "--mass", "1", "--v", "1", "--tol", "1e-12")
        return d["lambda"] / math.sqrt(6.0)

    def linear_c(self, e, k, mass):
        """Exact c of mass d'' + k d + c d' = 0 with the force clamped at zero (condition C)."""
        return self.run("copt", "--n", "1", "--e", repr(e), "--k", repr(k), "--mass", repr(mass),
                        "--v", "1", "--tol", "1e-12")["c_opt"]


def sphere_mass(r, rho):
    return rho * 4.0 / 3.0 * math.pi * r ** 3


GEOMETRIES = [
    ("equal spheres", {"geometry": "sphere-sphere", "r1": 0.005, "r2": 0.005, "rho1": 2500.0, "rho2": 2500.0}),
    ("unequal r, m", {"geometry": "sphere-sphere", "r1": 0.005, "r2": 0.003, "rho1": 2500.0, "rho2": 7800.0}),
    ("sphere-wall", {"geometry": "sphere-wall", "r1": 0.005, "rho1": 2500.0}),
]
SPEEDS = [0.2, 1.0, 4.0]
ES = [0.1, 0.3, 0.5, 0.7, 0.9]
TC_INPUT = 1e-4  # ViscElMat.tc used in the tc/en/et inputs


def real_mass(g):
    m1 = sphere_mass(g["r1"], g["rho1"])
    if g["geometry"] == "sphere-wall":
        return m1
    m2 = sphere_mass(g["r2"], g["rho2"])
    return m1 * m2 / (m1 + m2)


def viscel_mass(g):
    """ViscoelasticPM.cpp lines 190-199: a zero mass (utils.wall) is replaced by the other body's."""
    m1 = sphere_mass(g["r1"], g["rho1"])
    if g["geometry"] == "sphere-wall":
        return m1 * m1 / (m1 + m1)
    return real_mass(g)


def yade_reff(g):
    """R1 R2 / (R1 + R2) from ScGeom.refR: utils.wall's radius is the sphere's (Ig2_Facet_Sphere_ScGeom.cpp:220)."""
    if g["geometry"] == "sphere-wall":
        return g["r1"] / 2.0
    return g["r1"] * g["r2"] / (g["r1"] + g["r2"])


def frict(extra):
    return ("mat = FrictMat(young=%r, poisson=%r, frictionAngle=0, density=2500)\n"
            "ip2 = Ip2_FrictMat_FrictMat_MindlinPhys(%s)\n"
            "law2 = Law2_ScGeom_MindlinPhys_Mindlin()\n" % (E_MOD, NU, extra))


def viscel(extra):
    return ("mat = ViscElMat(%s, frictionAngle=0, density=2500)\n"
            "ip2 = Ip2_ViscElMat_ViscElMat_ViscElPhys()\n"
            "law2 = Law2_ScGeom_ViscElPhys_Basic()\n" % extra)


def build_all(imp, es):
    """Rows: (model, kind, geometry name, e asked, case template, input text, law, expected e or None).
    law = (n, m, k, c, mass): the contact law YADE really integrates for that input (read from its
    source), mass d'' + k d^n + c d^m d' = 0 with the force clamped at zero; expected None: the e of
    the law (a naive input), else the asked e (a corrected input)."""
    rows = []
    estar = E_MOD / (2.0 * (1.0 - NU * NU))
    for e in es:
        beta = imp.mindlin_beta(e)
        for gname, g in GEOMETRIES:
            m = real_mass(g)
            mv = viscel_mass(g)
            # Hertz-Mindlin (HertzMindlin.cpp:51-54, 330-355): kno = 4/3 E* sqrt(R), cn = 2 beta sqrt(mbar kn),
            # kn = 3/2 kno sqrt(delta), mbar = m (a fixed wall: the dynamic body's mass).
            kno = 4.0 / 3.0 * estar * math.sqrt(yade_reff(g))
            eta = 2.0 * math.sqrt(1.5 * kno * m)
            rows.append(("MindlinPhys en", "naive", gname, e, g, frict("en=%r" % e),
                         (1.5, 0.25, kno, eta * beta_b6(e), m), None))
            rows.append(("MindlinPhys betan", "exact", gname, e, g, frict("betan=%r" % beta),
                         (1.5, 0.25, kno, eta * beta, m), e))
            # ViscElMat tc/en/et: kn = (pi^2 + ln^2 en) mbar / tc^2, cn = -2 ln(en) mbar / tc (lines 224-225).
            kn = (math.pi ** 2 + math.log(e) ** 2) * mv / TC_INPUT ** 2
            cn = -2.0 * math.log(e) * mv / TC_INPUT
            rows.append(("ViscElMat tc,en", "naive", gname, e, g, viscel("tc=%r, en=%r, et=1" % (TC_INPUT, e)),
                         (1, 0, kn, cn, m), None))
            zr = imp.linear_c(e, 1.0, 1.0) / 2.0 * math.sqrt(m / mv)  # damping ratio YADE must be given
            if zr < 1.0:
                en_in = math.exp(-math.pi * zr / math.sqrt(1.0 - zr * zr))
                kn = (math.pi ** 2 + math.log(en_in) ** 2) * mv / TC_INPUT ** 2
                cn = -2.0 * math.log(en_in) * mv / TC_INPUT
                rows.append(("ViscElMat tc,en", "exact", gname, e, g,
                             viscel("tc=%r, en=%r, et=1" % (TC_INPUT, en_in)), (1, 0, kn, cn, m), e))
            # ViscElMat young + en: kn = 2 E R1R2/(R1+R2) (lines 249-250), cn from find_cn_from_en.
            kyy = 2.0 * E_MOD * yade_reff(g)
            rows.append(("ViscElMat young,en", "naive", gname, e, g,
                         viscel("young=%r, poisson=%r, en=%r" % (E_MOD, NU, e)),
                         (1, 0, kyy, find_cn_from_en(e, mv, kyy), m), None))
            c = imp.linear_c(e, kyy, m)
            rows.append(("ViscElMat young,cn", "exact", gname, e, g,
                         viscel("young=%r, poisson=%r, cn=%r, cs=0" % (E_MOD, NU, 2.0 * c)), (1, 0, kyy, c, m), e))
            # ViscElMat kn/cn given per material: the contact takes 1/(1/a1 + 1/a2) = a/2 (lines 333-340).
            k = 1e5
            c = imp.linear_c(e, k, m)
            rows.append(("ViscElMat kn,cn", "naive", gname, e, g,
                         viscel("kn=%r, cn=%r, ks=0, cs=0" % (k, c)), (1, 0, k / 2, c / 2, m), None))
            rows.append(("ViscElMat kn,cn", "exact", gname, e, g,
                         viscel("kn=%r, cn=%r, ks=0, cs=0" % (2 * k, 2 * c)), (1, 0, k, c, m), e))
    return rows


def run_yade(cases, args):
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        path = os.path.join(args.keep, "cases.json")
        f = open(path, "w")
    else:
        fd, path = tempfile.mkstemp(prefix="check_yade.", suffix=".json")
        f = os.fdopen(fd, "w")
    with f:
        json.dump(cases, f)
    cmd = [sys.executable, os.path.join(HERE, "run_yade.py"), path]
    if args.steps_per_contact:
        cmd += ["--steps-per-contact", repr(args.steps_per_contact)]
    if args.single:
        cmd += ["--single"]
    if args.keep:
        cmd += ["--keep", os.path.join(args.keep, "run")]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if not args.keep:
        os.remove(path)
    if p.returncode == 77:
        sys.stderr.write(p.stderr)
        sys.exit(77)
    if p.returncode != 0:
        sys.stderr.write(p.stderr)
        sys.exit(1)
    return json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser(description="Check YADE 2023.02a against impactfit (see the docstring).")
    ap.add_argument("--impactfit", required=True)
    ap.add_argument("--all", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--steps-per-contact", type=float)
    ap.add_argument("--single", action="store_true", help="pass --single to run_yade.py")
    ap.add_argument("--tol", type=float, default=1e-5, help="on e (default 1e-5)")
    ap.add_argument("--tol-t", type=float, default=1e-4,
                    help="with --all: relative, on the duration of the force (default 1e-4)")
    ap.add_argument("--keep")
    ap.add_argument("--e", help="with --all: comma-separated list of e (default %s)" % ",".join(map(str, ES)))
    ap.add_argument("--speeds", help="with --all: comma-separated speeds in m/s (default %s)" %
                    ",".join(map(str, SPEEDS)))
    args = ap.parse_args()
    if not (os.path.isfile(args.impactfit) and os.access(args.impactfit, os.X_OK)):
        sys.stderr.write("check_yade_table.py: error: --impactfit %s is not an executable\n" % args.impactfit)
        return 2
    imp = Impactfit(args.impactfit)
    failures = 0
    if not args.all:
        g = GEOMETRIES[0][1]
        cases = [dict(g, code="yade", E=E_MOD, nu=NU, v=1.0, input=frict("en=%r" % e)) for e, _ in TABLE]
        cases += [dict(g, code="yade", E=E_MOD, nu=NU, v=1.0, input=frict("betan=%r" % imp.mindlin_beta(e)))
                  for e, _ in TABLE]
        res = run_yade(cases, args)
        print("e asked | issue | YADE en=e | predicted (B6, clamped) | YADE betan=exact | dt")
        for i, (e, want) in enumerate(TABLE):
            r, rx = res[i], res[i + len(TABLE)]
            pred = imp.simulate(1.5, 0.25, 1.0, 2.0 * beta_b6(e) * math.sqrt(1.5), 1.0)["e_out"]
            ok = (abs(r["e"] - want) <= 5e-6 and abs(r["e"] - pred) <= args.tol and abs(rx["e"] - e) <= args.tol)
            failures += not ok
            print("%.2f | %.5f | %.7f | %.7f | %.7f | %.3g %s" % (e, want, r["e"], pred, rx["e"], r["dt"],
                                                                  "" if ok else "FAIL"))
        print("YADE %s" % res[0]["version"])
        return 1 if failures else 0
    es = [float(x) for x in args.e.split(",")] if args.e else ES
    speeds = [float(x) for x in args.speeds.split(",")] if args.speeds else SPEEDS
    rows = build_all(imp, es)
    cases = []
    for model, kind, gname, e, g, text, law, expect in rows:
        for v in speeds:
            cases.append(dict(g, code="yade", E=E_MOD, nu=NU, v=v, input=text))
    res = run_yade(cases, args)
    if args.markdown:
        print("| model | input | geometry | e asked | expected e | measured e at v = %s m/s | max dev e | "
              "max rel dev t_force |" % ", ".join("%g" % v for v in speeds))
        print("|---|---|---|---|---|---|---|---|")
    k = 0
    worst = worst_t = 0.0
    for model, kind, gname, e, g, text, law, expect in rows:
        n, mexp, kk, c, mass = law
        devs, devt, got = [], [], []
        for v in speeds:
            sim = imp.simulate(n, mexp, kk, c, mass, v)
            want = expect if expect is not None else sim["e_out"]
            r = res[k]
            k += 1
            got.append(r["e"])
            devs.append(abs(r["e"] - want))
            if r.get("t_force") is not None:
                devt.append(abs(r["t_force"] - sim["t_contact"]) / sim["t_contact"])
            else:
                devt.append(float("inf"))
        dev, dt_rel = max(devs), max(devt)
        worst, worst_t = max(worst, dev), max(worst_t, dt_rel)
        bad = dev > args.tol or dt_rel > args.tol_t
        failures += bad
        shown = want if expect is None else expect
        if args.markdown:
            print("| %s | %s | %s | %.2f | %.7f | %s | %.1e | %.1e%s |" % (model, kind, gname, e, shown,
                  ", ".join("%.7f" % x for x in got), dev, dt_rel, " FAIL" if bad else ""))
        else:
            print("%-20s %-6s %-14s e=%.2f expected %.7f measured %s dev %.1e t_force %.1e %s" % (
                model, kind, gname, e, shown, " ".join("%.7f" % x for x in got), dev, dt_rel,
                "FAIL" if bad else "ok"))
    print("%d rows, %d cases, worst deviation in e %.2e, in t_force (relative) %.2e, YADE %s, %d failed" % (
        len(rows), len(cases), worst, worst_t, res[0]["version"], failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
