# SPDX-License-Identifier: GPL-3.0-or-later
"""Tests of impactfit.dem (= impactfit.code; ctest -L python): the same numbers and texts as `impactfit dem ...
--json` to the last digit (the CLI prints %.17g, parsed by Python's correctly rounded float()), broadcasting,
the forward problem as the inverse of the solve, and the library's messages for bad input. The bodies'
convention of every code: a sphere on a wall by default, pair=True (--pair) for two equal spheres, any
body-2 value for two spheres.
Environment (set by ctest): PYTHONPATH=BUILD/python, IMPACTFIT_CLI."""
import json
import math
import os
import subprocess

import numpy as np
import pytest

import impactfit

CLI = os.environ.get("IMPACTFIT_CLI", "impactfit")

GLASS = dict(E=1e8, nu=0.3, radius=0.005, density=2500.0)


def cli_dem(code, model, **kw):
    args = [CLI, "dem", "--code", code, "--model", model, "--json"]
    for k, x in kw.items():
        if x is True:
            args.append("--" + k)
        else:
            args += ["--" + k, x if isinstance(x, str) else repr(x)]
    out = subprocess.run(args, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def num(x):
    return math.nan if x is None else x


def same(a, b):
    return a == b or (math.isnan(a) and math.isnan(b))


# (code, model, python keywords, extra CLI options)
CASES = [
    ("lammps", "granular hertz/material", dict(e=0.5, v=1.0, damping="tsuji", pair=True, **GLASS), {}),
    ("lammps", "granular hertz/material", dict(e=0.1, v=1.0, damping="tsuji", pair=True, **GLASS), {}),  # unreachable
    ("lammps", "granular hertz/material", dict(e=0.5, v=1.0, damping="tsuji", **GLASS), {}),  # on a wall
    ("liggghts", "hertz", dict(e=0.3, v=2.0, limit=True, E=5e6, nu=0.25, r1=0.002, r2=0.003, rho1=2000.0,
                               rho2=3000.0), {"limit": "on"}),
    ("yade", "mindlin", dict(e=0.7, v=0.5, damping="en", wall=True, E=7e7, nu=0.2, radius=0.01, density=1500.0), {}),
    ("lammps", "gran/hertz/history", dict(e=0.6, v=3.0, kn=2e8, radius=0.004, m1=1e-3, m2=2e-3), {}),
]


@pytest.mark.parametrize("code,model,kw,extra", CASES)
def test_dem_equals_cli(code, model, kw, extra):
    cli_kw = {k.replace("_", "-"): x for k, x in kw.items() if k not in ("limit", "wall", "pair")}
    for flag in ("wall", "pair"):
        if kw.get(flag):
            cli_kw[flag] = True
    cli_kw.update(extra)
    ref = cli_dem(code, model, **cli_kw)
    r = impactfit.dem(code, model, **kw)
    for key in ("value", "e_naive", "zeta", "C", "K", "R", "M"):
        assert same(num(r[key]), num(ref[key])), key
    assert r["reachable"] == ref["reachable"] and isinstance(r["reachable"], int)
    assert r["input"] == ref["input"] and r["note"] == ref["note"] and r["kind"] == "power"
    assert set(ref) <= set(r)
    for key in ref:  # every key of the CLI's JSON, the same value
        if key != "alternative":
            x, y = r[key], ref[key]
            if isinstance(x, tuple):
                assert len(x) == len(y) and all(same(a, num(b)) for a, b in zip(x, y)), (key, x, y)
            else:
                assert x == y or (isinstance(x, float) and same(x, num(y))), (key, x, y)
    if ref["reachable"]:
        assert "alternative" not in r and r["input"].count(repr(r["value"])[:8]) >= 1
    else:
        alt, ra = ref["alternative"], r["alternative"]
        assert (ra["model"], ra["damping"], ra["value"], ra["input"], ra["note"], ra["end"]) == \
            (alt["model"], alt["damping"], alt["value"], alt["input"], alt["note"], alt["end"])


# two materials and the user's friction (docs/SCENE.md): e11, e22, tangential and per-body E, nu, as the CLI's
# --e11, --e22, --tangential, --E E1,E2 --nu NU1,NU2
SCENE = [
    ("lammps", "granular hertz/material", dict(damping="tsuji", tangential="mindlin NULL 1.0 0.5"),
     {"damping": "tsuji", "tangential": "mindlin NULL 1.0 0.5"}),
    ("lammps", "granular hertz/material", dict(damping="viscoelastic", tangential="linear_history 1e5 0.5 0.4"),
     {"damping": "viscoelastic", "tangential": "linear_history 1e5 0.5 0.4"}),
    ("liggghts", "hertz", dict(tangential="history", coefficientFriction=0.5),
     {"tangential": "history", "coefficientFriction": 0.5}),
    ("yade", "mindlin", dict(damping="en", frictionAngle=0.4), {"damping": "en", "frictionAngle": 0.4}),
]


@pytest.mark.parametrize("code,model,kw,extra", SCENE)
def test_dem_two_materials_and_friction_equal_cli(code, model, kw, extra):
    bodies = dict(r1=0.005, r2=0.004, rho1=2500.0, rho2=7800.0)
    ref = cli_dem(code, model, e=0.65, v=1.0, e11=0.5, e22=0.8, E="1e8,5e8", nu="0.3,0.2", **bodies, **extra)
    r = impactfit.dem(code, model, e=0.65, v=1.0, e11=0.5, e22=0.8, settings={"E": (1e8, 5e8), "nu": (0.3, 0.2)},
                      **bodies, **kw)
    assert set(ref) <= set(r)
    for key in ref:
        x, y = r[key], ref[key]
        if isinstance(x, tuple):
            assert len(x) == len(y) and all(same(a, num(b)) for a, b in zip(x, y)), (key, x, y)
        else:
            assert x == y or (isinstance(x, float) and same(x, num(y))), (key, x, y)
    # one line (or matrix entry) per type pair with e11 != e22: the texts differ from a one-pair request's
    one = impactfit.dem(code, model, e=0.65, v=1.0, settings={"E": (1e8, 5e8), "nu": (0.3, 0.2)}, **bodies, **kw)
    assert one["input"] != r["input"] and "<yours" not in r["input"]
    if "tangential" in kw:
        assert kw["tangential"] in r["input"]


def test_dem_scene_errors():
    with pytest.raises(ValueError, match="e11"):
        impactfit.dem("lammps", "granular hertz/material", e=0.5, v=1.0, damping="tsuji", e11=1.5, **GLASS)
    with pytest.raises(TypeError, match="tangential"):
        impactfit.dem("lammps", "granular hertz/material", e=0.5, v=1.0, damping="tsuji", tangential=3, **GLASS)
    with pytest.raises(ValueError):  # a first word LAMMPS does not know: the library's EINVAL
        impactfit.dem("lammps", "granular hertz/material", e=0.5, v=1.0, damping="tsuji", tangential="bogus 1",
                      **GLASS)


def test_dem_unreachable_tsuji_and_its_alternative():
    r = impactfit.dem("lammps", "granular hertz/material", 0.1, 1.0, damping="tsuji", pair=True, **GLASS)
    assert r["reachable"] == 0 and math.isnan(r["value"]) and r["input"] == ""
    assert "cannot give e = 0.1" in r["note"]
    alt = r["alternative"]
    assert alt["damping"] == "velocity" and "damping velocity" in alt["input"]
    # the alternative's value, typed into that model, gives e = 0.1 (the forward problem, independently solved)
    f = impactfit.dem("lammps", "granular hertz/material", value=alt["value"], v=1.0, damping="velocity", pair=True,
                      **GLASS)
    assert abs(f["e_real"] - 0.1) < 1e-9


def test_dem_forward_equals_cli_and_inverts_the_solve():
    kw = dict(kn=2e8, radius=0.004, m1=1e-3, m2=2e-3)
    s = impactfit.dem("lammps", "gran/hertz/history", 0.6, 3.0, **kw)
    f = impactfit.dem("lammps", "gran/hertz/history", value=s["value"], v=3.0, **kw)
    assert abs(f["e_real"] - 0.6) < 1e-9
    ref = cli_dem("lammps", "gran/hertz/history", value=s["value"], v=3.0, kn=2e8, radius=0.004, m1=1e-3, m2=2e-3)
    assert (f["value"], f["e_real"], f["input"]) == (ref["value"], ref["e_real"], ref["input"])
    assert {"value", "e_real", "R", "M", "input"} <= set(f) and f["kind"] == "forward"
    assert (f["R"], f["M"]) == (ref["R"], ref["M"])
    # speed dependent (m = 0.5 != (n - 1)/2): the same gamma_n gives another e at another speed
    g = impactfit.dem("lammps", "gran/hertz/history", value=s["value"], v=0.3, **kw)
    assert g["e_real"] > 0.6 + 1e-3


def test_dem_effective_radius_and_mass():
    r = impactfit.dem("lammps", "granular hertz/material", 0.5, 1.0, damping="tsuji", pair=True, **GLASS)
    m = 4.0 / 3.0 * math.pi * 0.005 ** 3 * 2500.0
    assert abs(r["R"] - 0.0025) < 1e-18 and abs(r["M"] / (m / 2) - 1) < 1e-15
    w = impactfit.dem("lammps", "granular hertz/material", 0.5, 1.0, damping="tsuji", **GLASS)
    assert w["R"] == 0.005 and abs(w["M"] / m - 1) < 1e-15  # the default: a wall
    with pytest.raises(ValueError, match="wall"):  # a wall has no radius or mass of its own
        impactfit.dem("lammps", "granular hertz/material", 0.5, 1.0, damping="tsuji", wall=True, r2=1.0, m2=7.0,
                      E=1e8, nu=0.3, r1=0.005, m1=m)
    d = impactfit.dem("lammps", "granular hertz/material", 0.5, 1.0, damping="tsuji", E=1e8, nu=0.3, meff=m / 2,
                      reff=0.0025)
    assert abs(d["value"] / r["value"] - 1) < 1e-14 and (d["R"], d["M"]) == (0.0025, m / 2)


def test_dem_broadcasts():
    e = np.array([[0.2], [0.5], [0.8]])
    v = np.array([0.5, 1.0, 2.0, 4.0])
    kw = dict(kn=2e8, radius=0.004, density=np.array([1000.0, 2000.0, 3000.0, 4000.0]))
    r = impactfit.dem("lammps", "gran/hertz/history", e, v, **kw)
    assert "input" not in r and "note" not in r
    for key in ("value", "e_naive", "reachable", "zeta", "C", "K", "R", "M"):
        assert r[key].shape == (3, 4), key
    assert r["reachable"].dtype == np.int64
    for i in range(3):
        for j in range(4):
            s = impactfit.dem("lammps", "gran/hertz/history", float(e[i, 0]), float(v[j]), kn=2e8, radius=0.004,
                              density=float(kw["density"][j]), threads=1)
            for key in ("value", "zeta", "C", "K", "R", "M"):
                assert r[key][i, j] == s[key], (key, i, j)
    f = impactfit.dem("lammps", "gran/hertz/history", value=[1e3, 1e4], v=1.0, kn=2e8, radius=0.004, density=2500.0)
    assert f["e_real"].shape == (2,) and f["e_real"][0] > f["e_real"][1]


def test_dem_errors():
    with pytest.raises(ValueError, match=r"unknown code 'lamps' \(known: lammps, liggghts, yade, chrono, mujoco, "
                       r"simbody, ode, bullet, dart, rapier, jolt, physx, cannon, havok\); did you mean 'lammps'\?"):
        impactfit.dem("lamps", "hertz", 0.5, 1.0, **GLASS)
    with pytest.raises(ValueError, match=r"unknown lammps model 'hertzz' \(known: 'granular hertz/material'"):
        impactfit.dem("lammps", "hertzz", 0.5, 1.0, **GLASS)
    with pytest.raises(ValueError, match="unknown damping option 'tsujii'.*did you mean 'tsuji'"):
        impactfit.dem("lammps", "granular hertz/material", 0.5, 1.0, damping="tsujii", **GLASS)
    with pytest.raises(ValueError, match=r"gran/hertz/history takes no setting 'E' \(its settings: kn "):
        impactfit.dem("lammps", "gran/hertz/history", 0.5, 1.0, **GLASS)
    with pytest.raises(ValueError, match="liggghts hertz needs E"):
        impactfit.dem("liggghts", "hertz", 0.5, 1.0, radius=0.005, density=2500.0)
    with pytest.raises(ValueError, match="yade viscel needs tc"):
        impactfit.dem("yade", "viscel", 0.5, 1.0, damping="en", radius=0.005, density=2500.0)
    with pytest.raises(ValueError, match=r"takes no setting 'kn' \(its settings: tc "):
        impactfit.dem("yade", "viscel", 0.5, 1.0, damping="en", radius=0.005, density=2500.0, kn=1e5)
    # with tc the request is complete: the en to type (clamped force: not e itself) gives e = 0.5 back
    body = dict(damping="en", radius=0.005, density=2500.0, tc=1e-4)
    r = impactfit.dem("yade", "viscel", 0.5, 1.0, **body)
    assert 0.0 < r["value"] < 0.5
    assert abs(impactfit.dem("yade", "viscel", v=1.0, value=r["value"], **body)["e_real"] - 0.5) < 1e-9
    with pytest.raises(ValueError, match="not both"):
        impactfit.dem("liggghts", "hertz", 0.5, 1.0, value=0.5, **GLASS)
    with pytest.raises(ValueError, match="radius or r1, not both"):
        impactfit.dem("liggghts", "hertz", 0.5, 1.0, r1=0.005, **GLASS)
    with pytest.raises(ValueError, match=r"at index 1"):
        impactfit.dem("liggghts", "hertz", [0.5, 1.5], 1.0, **GLASS)
    nan = impactfit.dem("liggghts", "hertz", [0.5, 1.5], 1.0, on_error="nan", **GLASS)
    assert not math.isnan(nan["value"][0]) and math.isnan(nan["value"][1])


def test_dem_note_speed_independent():
    """Issue 28 finding 1: a scale-invariant model (m = (n - 1)/2) is exact at every speed, for two spheres
    and a wall alike; the note says so, never "exact at v = ... only"."""
    for wall in (False, True):
        for code, model, damping in (("lammps", "granular hertz/material", "tsuji"), ("liggghts", "hertz", None),
                                     ("yade", "mindlin", "en"), ("chrono", "hertz", None)):
            r = impactfit.dem(code, model, 0.5, 1.0, damping=damping, wall=wall, pair=not wall, **GLASS)
            assert r["note"].startswith("exact at every speed (m = (n - 1)/2)"), (code, model, wall, r["note"])
    r = impactfit.dem("lammps", "gran/hertz/history", 0.5, 1.0, kn=7.3e7, radius=0.005, density=2500.0)
    assert r["note"].startswith("exact at v = 1 m/s only"), r["note"]


def _same_json(a, b, path=""):
    """a Python value equals the CLI's JSON value: numbers bit for bit (None is NaN), tuples as lists"""
    if isinstance(b, dict):
        assert isinstance(a, dict) and sorted(a) == sorted(b), (path, sorted(a), sorted(b))
        for k in b:
            _same_json(a[k], b[k], path + "." + k)
    elif isinstance(b, list):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            _same_json(x, y, "%s[%d]" % (path, i))
    elif isinstance(b, (int, float)) or b is None:
        assert same(num(a), num(b)), (path, a, b)
    else:
        assert a == b, (path, a, b)


@pytest.mark.parametrize("code,model,kw", [
    ("lammps", "gran/hertz/history", dict(kn=7.3e7, radius=0.005, density=2500.0, pair=True)),   # an exact model
    ("liggghts", "hertz/stiffness", dict(kn=1e6, radius=0.005, density=2500.0, pair=True)),     # one named
    ("liggghts", "hertz", dict(pair=True, **GLASS)),                                            # exact itself
])
def test_dem_radius_range_equals_cli(code, model, kw):
    """radius_range=(a, b) with v_range: the spread, exact_model and exact_other keys of `--json`, value for value;
    the spread's corners are the forward e at those bodies (Python's own forward calls)"""
    r = impactfit.dem(code, model, 0.5, 1.0, radius_range=(0.002, 0.01), v_range=(0.2, 5.0), **kw)
    cli_kw = {k: x for k, x in kw.items() if k != "pair"}
    c = cli_dem(code, model, e=0.5, v=1.0, pair=True, **{"radius-range": "0.002,0.01", "v-range": "0.2,5"}, **cli_kw)
    for k in ("spread", "exact_model", "exact_other", "note", "value"):
        assert (k in r) == (k in c), k
        if k in c:
            _same_json(r[k], c[k], k)
    sp = r["spread"]
    assert sp["evaluations"] == 125 and len(sp["corners"]) == 8
    base = {k: x for k, x in kw.items() if k not in ("radius", "pair")}
    for corner in sp["corners"][::3]:
        f = impactfit.dem(code, model, value=r["value"], v=corner["v"], r1=corner["r1"], r2=corner["r2"],
                          rho2=base.get("density"), **base)
        assert abs(f["e_real"] - corner["e"]) < 1e-12, (corner, f["e_real"])
    if sp["exact"]:
        assert sp["e_max"] - sp["e_min"] < 1e-12 and "exact_model" not in r
    else:
        assert abs(sp["worst"] - max(abs(x["e"] - 0.5) for x in sp["corners"])) < 1e-12 or sp["worst"] > 0.3
    with pytest.raises(ValueError, match="radius_range"):
        impactfit.dem(code, model, 0.5, 1.0, radius_range=(0.01, 0.002), **kw)


def test_dem_r2_range_equals_cli():
    """r2_range: body 2's own size range; the spread (with "r2_range") and exact_model equal `--r2-range --json`'s;
    the corners carry body 2's radii and are the forward e there; r2_range alone is refused"""
    kw = dict(E=1e8, nu=0.3, density=2500.0)
    r = impactfit.dem("lammps", "granular hertz/material", 0.5, 1.0, damping="mass_velocity", r1=0.005, r2=0.0012,
                      rho2=2500.0, radius_range=(0.002, 0.01), r2_range=(0.001, 0.0015), v_range=(0.2, 5.0), **kw)
    c = cli_dem("lammps", "granular hertz/material", e=0.5, v=1.0, damping="mass_velocity", r1=0.005, r2=0.0012,
                **{"radius-range": "0.002,0.01", "r2-range": "0.001,0.0015", "v-range": "0.2,5"}, **kw)
    for k in ("spread", "exact_model", "note", "value"):
        _same_json(r[k], c[k], k)
    sp = r["spread"]
    assert tuple(sp["r2_range"]) == (0.001, 0.0015) and len(sp["corners"]) == 8
    assert {x["r2"] for x in sp["corners"]} == {0.001, 0.0015}
    for corner in sp["corners"][::3]:
        f = impactfit.dem("lammps", "granular hertz/material", value=r["value"], v=corner["v"], damping="mass_velocity",
                          r1=corner["r1"], r2=corner["r2"], rho2=2500.0, **kw)
        assert abs(f["e_real"] - corner["e"]) < 1e-12, (corner, f["e_real"])
    # the smallest e lies inside r1's range (found between the grid's points), below every corner
    assert 0.002 < sp["where"]["e_min"][0] < 0.01 and sp["e_min"] < min(x["e"] for x in sp["corners"]) - 1e-3
    with pytest.raises(ValueError, match="r2_range"):
        impactfit.dem("lammps", "granular hertz/material", 0.5, 1.0, damping="mass_velocity", r1=0.005, r2=0.0012,
                      rho2=2500.0, r2_range=(0.001, 0.0015), **kw)
