#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Record (or compare) `impactfit dem` / `impactfit engine` outputs for a broad set of requests: every model of
`impactfit dem --list --json` (two spheres and a wall; e 0.1, 0.5, 0.9; text, table, CSV, JSON; speed ranges;
forward; the clamp switch), the documents' and tests' command lines, errors, and the engines' requests. Not a
ctest: the check of a refactoring that must keep the outputs (issue 32 used it against d76a267, the last
commit before the one registry: 1089 requests; see the round's report for the differences it found, all
intended).

outputs.py record OLD_BINARY OUT.jsonl     run the requests with their command lines as of d76a267 (the
                                          model list from the old program)
outputs.py compare NEW_BINARY OLD.jsonl [FILTER]   run each request's command line adapted to the one
                                                  registry's conventions (adapt()) and list what differs
"""
import json
import subprocess
import sys

M = ["--E", "1e8", "--nu", "0.3", "--radius", "0.005", "--density", "2500"]
B = ["--v", "1", "--mass", "0.001309"]


def dem_models(binary):
    out = subprocess.run([binary, "dem", "--list", "--json"], capture_output=True, text=True).stdout
    return [json.loads(l) for l in out.splitlines() if l.strip()]


def inputs_of(md):
    if md["kn_unit"]:
        kn = {"N/m": "2e4", "Pa": "7.3e7", "N/m^2.5": "1e9", "N/m^1.5": "1e6"}[md["kn_unit"]]
        return ["--kn", kn, "--radius", "0.005", "--density", "2500"]
    if md["model"] == "viscel" and md["damping"] == "en":
        return ["--tc", "5e-4", "--radius", "0.005", "--density", "2500"]
    return list(M)


def requests(binary):
    reqs = []
    for md in dem_models(binary):
        base = ["dem", "--code", md["code"], "--model", md["model"]]
        if md["damping"]:
            base += ["--damping", md["damping"]]
        ins = inputs_of(md)
        tag = "%s/%s/%s" % (md["code"], md["model"], md["damping"])
        for geo in ([], ["--wall"]):
            g = "wall" if geo else "pair"
            for e in ("0.1", "0.5", "0.9"):
                reqs.append(("dem %s %s e%s json" % (tag, g, e), base + ins + geo + ["--e", e, "--v", "1", "--json"]))
            reqs.append(("dem %s %s text" % (tag, g), base + ins + geo + ["--e", "0.5", "--v", "1"]))
            reqs.append(("dem %s %s text e0.1" % (tag, g), base + ins + geo + ["--e", "0.1", "--v", "1"]))
            reqs.append(("dem %s %s table" % (tag, g), base + ins + geo + ["--e", "0.3,0.7", "--v", "0.5,2"]))
            reqs.append(("dem %s %s csv" % (tag, g), base + ins + geo + ["--e", "0.3,0.7", "--v", "0.5,2", "--csv"]))
            reqs.append(("dem %s %s vrange" % (tag, g),
                         base + ins + geo + ["--e", "0.5", "--v", "1", "--v-range", "0.2,5", "--json"]))
            reqs.append(("dem %s %s vrange text" % (tag, g),
                         base + ins + geo + ["--e", "0.5", "--v", "1", "--v-range", "0.2,5"]))
            fv = "0.5" if md["takes_e"] else {"N s/m": "0.01", "1/s": "5", "1/(m s)": "500"}.get(md["param_unit"], "0.5")
            reqs.append(("dem %s %s forward" % (tag, g), base + ins + geo + ["--value", fv, "--v", "1", "--json"]))
            reqs.append(("dem %s %s forward text" % (tag, g),
                         base + ins + geo + ["--value", fv, "--v", "1", "--v-range", "0.5,2"]))
            if md["clamp_switch"]:
                for lim in ("on", "off"):
                    reqs.append(("dem %s %s limit %s" % (tag, g, lim),
                                 base + ins + geo + ["--limit", lim, "--e", "0.5", "--v", "1", "--json"]))
        if md["model"] in ("hooke",) and md["code"] in ("liggghts", "chrono"):
            reqs.append(("dem %s vchar" % tag, base + ins + ["--vchar", "2", "--e", "0.5", "--v", "1", "--json"]))
        reqs.append(("dem %s meff" % tag, base + [a for a in ins if a not in ("--radius", "0.005", "--density", "2500")]
                     + ["--mass", "0.0006544984694978735", "--reff", "0.0025", "--e", "0.6", "--v", "1.3", "--json"]))
    # the docs' and tests' DEM lines
    reqs += [
        ("dem quickstart", ["dem", "--code", "lammps", "--model", "granular hertz/material", "--damping", "tsuji"] + M
         + ["--e", "0.5", "--v", "1"]),
        ("dem r1r2", ["dem", "--code", "lammps", "--model", "gran/hertz/history", "--kn", "7.3e7", "--r1", "0.004",
                      "--r2", "0.008", "--density", "2500", "--e", "0.4", "--v", "1.7", "--json"]),
        ("dem m1m2", ["dem", "--code", "lammps", "--model", "gran/hertz/history", "--kn", "7.3e7", "--radius", "0.005",
                      "--m1", "0.001", "--m2", "0.003", "--e", "0.4", "--v", "1.7", "--json"]),
        ("dem rho", ["dem", "--code", "liggghts", "--model", "hertz", "--E", "1e8", "--nu", "0.3", "--r1", "0.004",
                     "--r2", "0.006", "--rho1", "2500", "--rho2", "7800", "--e", "0.6", "--v", "2", "--json"]),
        ("dem version", ["dem", "--code", "lammps", "--version", "2Sep2026", "--model", "granular hertz/material",
                         "--damping", "tsuji"] + M + ["--e", "0.5", "--v", "1", "--json"]),
        ("dem version cr", ["dem", "--code", "lammps", "--version", "17Apr2024", "--model", "granular hooke",
                            "--damping", "coeff_restitution", "--kn", "2e4", "--radius", "0.005", "--density", "2500",
                            "--e", "0.5", "--v", "1", "--json"]),
        ("dem yade old", ["dem", "--code", "yade", "--version", "2022.01a", "--model", "mindlin", "--damping", "en"]
         + M + ["--e", "0.5", "--v", "1", "--json"]),
        ("dem points", ["dem", "--code", "lammps", "--model", "gran/hertz/history", "--kn", "7.3e7", "--radius",
                        "0.005", "--density", "2500", "--e", "0.5", "--v", "1", "--v-range", "0.2,5", "--points", "3",
                        "--json"]),
        ("dem grid range", ["dem", "--code", "liggghts", "--model", "hertz"] + M + ["--e", "0.1:0.9:5", "--v", "1:3:3"]),
        ("dem list", ["dem", "--list"]),
        ("dem list json", ["dem", "--list", "--json"]),
        ("dem list brief", ["dem", "--list", "--brief"]),
        ("dem list lammps", ["dem", "--list", "--code", "lammps"]),
        ("dem-audit", ["dem-audit", "--json"]),
        ("dem-audit text", ["dem-audit"]),
        ("dem-audit e", ["dem-audit", "--e", "0.1,0.5,0.9", "--json"]),
        ("dem-audit e chrono", ["dem-audit", "--e", "0.1,0.5,0.9", "--code", "chrono"]),
        ("engine lammps", ["engine", "--code", "lammps", "--model", "gran/hooke", "--kn", "1e5", "--e", "0.5", "--v",
                           "1", "--radius", "0.005", "--density", "2500"]),
    ]
    # errors (exit code and the message)
    E = [
        ["dem", "--code", "pfc", "--model", "x"] + M + ["--v", "1", "--e", "0.5"],
        ["dem", "--code", "lammps", "--model", "granular foo"] + M + ["--v", "1", "--e", "0.5"],
        ["dem", "--code", "yade", "--model", "mindlin"] + M + ["--v", "1", "--e", "0.5"],
        ["dem", "--code", "lammps", "--model", "granular hertz/material", "--damping", "coeff"] + M + ["--v", "1", "--e", "0.5"],
        ["dem", "--code", "lammps", "--version", "29Sep2021", "--model", "granular hertz/material", "--damping",
         "coeff_restitution"] + M + ["--v", "1", "--e", "0.5"],
        ["dem", "--code", "liggghts", "--version", "banana", "--model", "hertz"] + M + ["--v", "1", "--e", "0.5"],
        ["dem", "--code", "liggghts", "--model", "hertzz"] + M + ["--v", "1", "--e", "0.5"],
        ["dem", "--code", "liggghts", "--model", "hertz"] + M + ["--v", "1", "--e", "1.5"],
        ["dem", "--code", "liggghts", "--model", "hertz"] + M + ["--v", "1"],
        ["dem", "--code", "lammps", "--model", "gran/hooke"] + M + ["--v", "1", "--e", "0.5"],
        ["dem", "--code", "lammps", "--model", "gran/hooke", "--radius", "0.005", "--density", "2500", "--v", "1", "--e", "0.5"],
        ["dem", "--code", "lammps", "--model", "granular hertz/materail", "--damping", "tsuji"] + M + ["--v", "1", "--e", "0.5"],
        ["dem", "--code", "lammps", "--model", "granular hertz/material", "--damping", "tsuij"] + M + ["--v", "1", "--e", "0.5"],
        ["dem", "--code", "lamps", "--model", "x"] + M + ["--v", "1", "--e", "0.5"],
        ["dem", "--code", "yade", "--model", "mindlin", "--damping", "en", "--limit", "off"] + M + ["--v", "1", "--e", "0.5"],
        ["dem", "--code", "liggghts", "--model", "hertz"] + M + ["--v", "1", "--e", "0.5", "--v-range", "1"],
        ["dem", "--code", "liggghts", "--model", "hertz"] + M + ["--v", "1", "--e", "0.04", "--json"],
        ["engine", "--code", "mujko", "--e", "0.5"] + B,
        ["engine", "--code", "mujoco", "--model", "foo", "--e", "0.5"] + B,
        ["engine", "--code", "mujoco", "--version", "9.9.9", "--e", "0.5"] + B,
        ["engine", "--code", "mujoco", "--integrator", "rk5", "--e", "0.5"] + B,
        ["engine", "--code", "mujoco", "--solref", "0.02", "--e", "0.5"] + B,
        ["engine", "--code", "mujoco", "--set", "foo=1", "--e", "0.5"] + B,
        ["engine", "--code", "mujoco", "--e", "0.5", "--mass", "1"],
        ["engine", "--code", "mujoco", "--e", "1.5"] + B,
        ["engine", "--code", "mujoco", "--e", "0.5", "--dt", "0"] + B,
        ["engine", "--code", "mujoco", "--e", "0.5", "--value", "1"] + B,
        ["engine", "--code", "simbody", "--dt", "1e-4", "--e", "0.5"] + B,
        ["engine", "--code", "chrono", "--model", "Hertz", "--e", "0.5"] + B,
        ["engine", "--code", "ode", "--kp", "1000", "--e", "0.5"] + B,
        ["engine", "--code", "ode", "--e", "0.5", "--dt", "1e-3"] + B,
    ]
    reqs += [("error %d" % i, a) for i, a in enumerate(E)]
    # engines
    EN = [
        ("mujoco default", ["--code", "mujoco", "--e", "0.5"] + B + ["--json"]),
        ("mujoco default text", ["--code", "mujoco", "--e", "0.5"] + B),
        ("mujoco forward", ["--code", "mujoco", "--solref", "0.02,1"] + B + ["--json"]),
        ("mujoco forward text", ["--code", "mujoco", "--solref", "0.02,1"] + B),
        ("mujoco rk4", ["--code", "mujoco", "--e", "0.5", "--dt", "0.001", "--integrator", "rk4"] + B + ["--json"]),
        ("mujoco implicit", ["--code", "mujoco", "--e", "0.5", "--integrator", "implicit"] + B + ["--json"]),
        ("mujoco pair", ["--code", "mujoco", "--integrator", "rk4", "--dt", "0.001", "--e", "0.7", "--v", "2", "--mass",
                         "0.001309", "--m2", "0.005", "--json"]),
        ("mujoco direct", ["--code", "mujoco", "--model", "soft contact direct", "--solref", "-40000,-40", "--e", "0.5"]
         + B + ["--json"]),
        ("mujoco direct text", ["--code", "mujoco", "--model", "soft contact direct", "--solref", "-40000,-40", "--e",
                                "0.5"] + B),
        ("mujoco unstable", ["--code", "mujoco", "--solref", "0.005,0.1"] + B + ["--json"]),
        ("mujoco unstable text", ["--code", "mujoco", "--solref", "0.005,0.1"] + B),
        ("mujoco e0.3", ["--code", "mujoco", "--e", "0.3", "--dt", "0.002", "--solimp", "0.9,0.95,0.001,0.5,2",
                         "--solref", "0.02,1"] + B + ["--json"]),
        ("mujoco 2.3.7", ["--code", "mujoco", "--version", "2.3.7", "--e", "0.5"] + B + ["--json"]),
        ("mujoco 3.5.0", ["--code", "mujoco", "--version", "3.5.0", "--e", "0.5"] + B + ["--json"]),
        ("mujoco 3.5.0 text", ["--code", "mujoco", "--version", "3.5.0", "--e", "0.5", "--integrator", "implicitfast"]
         + B),
        ("mujoco vrange", ["--code", "mujoco", "--e", "0.5", "--v-range", "0.5,2"] + B + ["--json"]),
        ("mujoco vrange text", ["--code", "mujoco", "--e", "0.5", "--v-range", "0.5,2"] + B),
        ("mujoco refsafe0", ["--code", "mujoco", "--refsafe", "0", "--solref", "0.003,1", "--e", "0.5", "--dt", "0.001"]
         + B + ["--json"]),
        ("mujoco set", ["--code", "mujoco", "--set", "solref=0.03,0.7"] + B + ["--json"]),
        ("mujoco density", ["--code", "mujoco", "--e", "0.6", "--v", "1", "--density", "2500", "--radius", "0.01",
                            "--json"]),
        ("simbody", ["--code", "simbody", "--stiffness", "1e7,1e9", "--e", "0.9"] + B + ["--json"]),
        ("simbody text", ["--code", "simbody", "--stiffness", "1e7,1e9", "--e", "0.9"] + B),
        ("simbody v2.5", ["--code", "simbody", "--e", "0.5", "--v", "2.5", "--mass", "0.001309", "--json"]),
        ("simbody cc", ["--code", "simbody", "--model", "CompliantContactSubsystem", "--stiffness", "1e7,1e9", "--e",
                        "0.3", "--v", "1", "--mass", "0.001309", "--m2", "0.004", "--json"]),
        ("simbody forward", ["--code", "simbody", "--dissipation", "0.5"] + B + ["--json"]),
        ("simbody forward text", ["--code", "simbody", "--dissipation", "0.5"] + B),
        ("simbody rkf", ["--code", "simbody", "--integrator", "rkfeldberg", "--e", "0.9"] + B),
        ("simbody rk2", ["--code", "simbody", "--integrator", "rk2", "--e", "0.9"] + B + ["--json"]),
        ("ode", ["--code", "ode", "--kp", "1000", "--dt", "1e-4", "--e", "0.5"] + B + ["--json"]),
        ("ode text", ["--code", "ode", "--kp", "1000", "--dt", "1e-4", "--e", "0.5"] + B),
        ("ode unreachable", ["--code", "ode", "--kp", "1000", "--dt", "1e-3", "--e", "0.45"] + B + ["--json"]),
        ("ode unreachable text", ["--code", "ode", "--kp", "1000", "--dt", "1e-3", "--e", "0.45"] + B),
        ("ode quick pair", ["--code", "ode", "--kp", "1000", "--dt", "1e-4", "--e", "0.5"] + B
         + ["--m2", "0.002", "--integrator", "quickstep", "--json"]),
        ("ode erp", ["--code", "ode", "--model", "erp-cfm", "--cfm", "2", "--dt", "1e-3", "--e", "0.3"] + B + ["--json"]),
        ("ode bounce", ["--code", "ode", "--model", "bounce", "--dt", "0.01", "--e", "0.15"] + B + ["--json"]),
        ("ode bounce text", ["--code", "ode", "--model", "bounce", "--dt", "0.01", "--e", "0.15"] + B),
        ("ode forward", ["--code", "ode", "--kp", "1000", "--kd", "0.5", "--dt", "1e-3"] + B + ["--json"]),
        ("bullet rest", ["--code", "bullet", "--model", "restitution", "--dt", "0.001", "--e", "0.5", "--v", "1",
                         "--mass", "0.0013089969", "--radius", "0.005", "--json"]),
        ("bullet rest text", ["--code", "bullet", "--model", "restitution", "--dt", "0.001", "--e", "0.5", "--v", "1",
                              "--mass", "0.0013089969", "--radius", "0.005"]),
        ("bullet stiff", ["--code", "bullet", "--model", "contact stiffness damping", "--kp", "1000", "--dt", "1e-4",
                          "--e", "0.5", "--v", "1", "--mass", "0.0013089969", "--radius", "0.005", "--json"]),
        ("bullet pair", ["--code", "bullet", "--model", "restitution", "--dt", "0.001", "--e", "0.5", "--v", "1",
                         "--mass", "0.0013089969", "--radius", "0.005", "--m2", "0.003", "--r2", "0.007", "--json"]),
        ("bullet default", ["--code", "bullet", "--e", "0.6", "--v", "2"] + B[2:] + ["--radius", "0.01", "--json"]),
        ("chrono hertz", ["--code", "chrono", "--model", "Hertz", "--young_modulus", "1e7,1e7", "--poisson_ratio",
                          "0.3,0.3", "--v", "1", "--mass", "0.001309", "--dt", "1e-5", "--e", "0.5", "--json"]),
        ("chrono hertz text", ["--code", "chrono", "--model", "Hertz", "--dt", "1e-5", "--e", "0.5", "--v", "1",
                               "--radius", "0.005", "--mass", "0.001309", "--young_modulus", "1e8,1e8"]),
        ("chrono hertz forward", ["--code", "chrono", "--model", "Hertz", "--young_modulus", "1e7,1e7", "--v", "1",
                                  "--mass", "0.001309", "--dt", "1e-5", "--value", "0.5", "--json"]),
        ("chrono hooke kn", ["--code", "chrono", "--model", "Hooke kn/gn", "--kn", "1e5", "--dt", "1e-4", "--e", "0.7",
                             "--v", "2", "--mass", "0.001309", "--json"]),
        ("chrono cr forward", ["--code", "chrono", "--dt", "1e-4", "--restitution", "0.5"] + B + ["--json"]),
        ("chrono hertz unreachable", ["--code", "chrono", "--model", "Hertz", "--young_modulus", "1e7,1e7", "--v", "1",
                                      "--mass", "0.001309", "--dt", "1e-5", "--e", "0.1", "--json"]),
        ("chrono heun", ["--code", "chrono", "--model", "Hooke", "--dt", "1e-4", "--integrator", "heun", "--e", "0.5"]
         + B + ["--json"]),
        ("chrono coulomb kn", ["--code", "chrono", "--model", "PlainCoulomb kn/gn", "--kn", "1e6", "--dt", "1e-4",
                               "--e", "0.5"] + B + ["--json"]),
        ("chrono hertz kn", ["--code", "chrono", "--model", "Hertz kn/gn", "--kn", "1e9", "--dt", "1e-5", "--e", "0.5"]
         + B + ["--json"]),
        ("chrono explicit", ["--code", "chrono", "--model", "Hooke", "--dt", "1e-4", "--integrator", "euler-explicit",
                             "--e", "0.5"] + B + ["--json"]),
        ("engine list", ["--list"]),
        ("engine list json", ["--list", "--json"]),
    ]
    for c in ("mujoco", "simbody", "ode", "bullet", "chrono"):
        EN.append(("engine list %s" % c, ["--list", "--code", c]))
    reqs += [("engine " + n, ["engine"] + a) for n, a in EN]
    return reqs


def swap(args, old, new):
    return [new if a == old else a for a in args]


def adapt(args):
    """The command line of a request in the new conventions."""
    a = list(args)
    cmd = a[0]
    code = a[a.index("--code") + 1] if "--code" in a else None
    dem_code = code in ("lammps", "liggghts", "yade")
    if cmd == "dem" or (cmd == "engine" and dem_code):
        if "--list" in a or code is None and "--e" not in a:
            return a
        body2 = any(x in a for x in ("--r2", "--rho2", "--m2"))
        if "--mass" in a and "--reff" in a:
            a = swap(a, "--mass", "--meff")
        if "--wall" not in a and not body2:
            a.append("--pair")
        a = swap(a, "--r1", "--radius")
        a = swap(a, "--rho1", "--density")
        a = swap(a, "--m1", "--mass")
        return a
    if cmd == "engine" and "--list" not in a:
        if "--radius" not in a:
            a += ["--radius", "0.005"]
        if "--model" in a:
            i = a.index("--model") + 1
            if a[i].endswith(" kn/gn"):
                a[i] = a[i][: -len(" kn/gn")]
                a += ["--damping", "gn"]
    return a


def run(binary, args):
    p = subprocess.run([binary] + args, capture_output=True, text=True)
    return {"rc": p.returncode, "out": p.stdout, "err": p.stderr}


def main():
    mode, binary, path = sys.argv[1:4]
    if mode == "record":
        with open(path, "w") as f:
            for name, args in requests(binary):
                r = run(binary, args)
                r.update(name=name, args=args)
                f.write(json.dumps(r) + "\n")
                f.flush()
        return 0
    old = [json.loads(l) for l in open(path)]
    only = sys.argv[4] if len(sys.argv) > 4 else None
    diff = 0
    for o in old:
        if only and only not in o["name"]:
            continue
        new_args = adapt(o["args"])
        r = run(binary, new_args)
        if (r["rc"], r["out"], r["err"]) != (o["rc"], o["out"], o["err"]):
            diff += 1
            print("=== DIFF %s\n  old: %s\n  new: %s" % (o["name"], " ".join(o["args"]), " ".join(new_args)))
            if r["rc"] != o["rc"]:
                print("  rc %d -> %d" % (o["rc"], r["rc"]))
            for k in ("out", "err"):
                if r[k] != o[k]:
                    print("  %s old: %s\n  %s new: %s" % (k, o[k][:1500], k, r[k][:1500]))
    print("%d of %d differ" % (diff, len(old)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
